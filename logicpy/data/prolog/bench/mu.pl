% Hofstadter's MU puzzle as a search for derivations. From the axiom MI, a string becomes
% another by one of four rules: add U after a final I; double what follows the M; replace
% III by U; drop UU. The shortest derivation of a theorem is found by iterative
% deepening, each depth searched in full before the next.
%
% run(Times, Theorem, Steps): Steps are the strings of a shortest derivation of Theorem
% from MI, found Times times.
% bench(Steps): run/3 for MUII (7 steps), 10 times.

bench(Steps) :- run(10, [m,u,i,i], Steps).

run(Times, Theorem, Steps) :-
    ( between(2, Times, _), shortest(Theorem, _), fail ; true ),
    shortest(Theorem, Steps).

shortest(Theorem, Steps) :-
    between(0, 10, Depth),
    derive([m,i], Theorem, Depth, Steps),
    !.

% derive(From, To, Depth, Steps): To follows from From in Depth rule applications;
% Steps are the strings after each of them.
derive(To, To, 0, []).
derive(From, To, Depth, [Next|Steps]) :-
    Depth > 0,
    rule(From, Next),
    Depth1 is Depth - 1,
    derive(Next, To, Depth1, Steps).

rule(S, T) :- concat(_, [i], S), concat(S, [u], T).
rule([m|X], [m|T]) :- concat(X, X, T).
rule(S, T) :- concat(X, [i,i,i|Y], S), concat(X, [u|Y], T).
rule(S, T) :- concat(X, [u,u|Y], S), concat(X, Y, T).

concat([], Ys, Ys).
concat([X|Xs], Ys, [X|Zs]) :- concat(Xs, Ys, Zs).
