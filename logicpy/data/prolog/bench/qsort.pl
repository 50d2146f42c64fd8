% Quicksort of a fixed list of 50 numbers (with repeats), partitioning around the
% head and collecting the result in a difference list (no append).
%
% run(Times, Sorted): the list sorted Times times.
% bench(S): run/2 at the benchmark's size.

bench(S) :- run(100, S).

run(Times, S) :-
    numbers(L),
    ( between(2, Times, _), qsort(L, _, []), fail ; true ),
    qsort(L, S, []).

numbers([27,74,17,33,94,18,46,83,65, 2,32,53,28,85,99,47,28,82, 6,11,55,29,39,81,
         90,37,10, 0,66,51, 7,21,85,27,31,63,75, 4,95,99,11,28,61,74,18,92,40,53,59, 8]).

% qsort(L, S, Tail): S is L sorted followed by Tail.
qsort([], S, S).
qsort([X|Xs], S, Tail) :-
    split(Xs, X, Small, Large),
    qsort(Small, S, [X|Mid]),
    qsort(Large, Mid, Tail).

split([], _, [], []).
split([Y|Ys], X, [Y|Small], Large) :- Y =< X, !, split(Ys, X, Small, Large).
split([Y|Ys], X, Small, [Y|Large]) :- split(Ys, X, Small, Large).
