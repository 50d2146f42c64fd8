% Naive reverse: reversing a list by appending each head to the reversed tail, a
% quadratic number of calls (496 for 30 elements). The classic measure of a Prolog
% system's raw speed in logical inferences per second.
%
% run(Times, R): reverse the list 1..30 Times times; R is the reversed list.
% bench(R): run/2 at the benchmark's size.

bench(R) :- run(150, R).

run(Times, R) :-
    count_up(1, 30, L),
    ( between(2, Times, _), nrev(L, _), fail ; true ),
    nrev(L, R).

nrev([], []).
nrev([X|Xs], R) :- nrev(Xs, Rs), concat(Rs, [X], R).

concat([], Ys, Ys).
concat([X|Xs], Ys, [X|Zs]) :- concat(Xs, Ys, Zs).

count_up(N, Max, []) :- N > Max, !.
count_up(N, Max, [N|Ns]) :- M is N + 1, count_up(M, Max, Ns).
