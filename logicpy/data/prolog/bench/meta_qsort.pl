% A meta-interpreter running quicksort: solve/1 interprets conjunctions, calls arithmetic
% comparisons directly and looks up the clauses of every other goal with clause/2. The
% object program sorts a list of 50 numbers with a difference list.
%
% run(Times, Sorted): the list sorted by the interpreted program Times times.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(20, A).

run(Times, Sorted) :-
    numbers(L),
    ( between(2, Times, _), solve(qsort(L, _, [])), fail ; true ),
    solve(qsort(L, Sorted, [])).

solve(true) :- !.
solve((A, B)) :- !, solve(A), solve(B).
solve(G) :- builtin(G), !, call(G).
solve(G) :- clause(G, Body), solve(Body).

builtin(_ =< _).
builtin(_ > _).

% The object program: qsort(L, S, Rest): S is L sorted followed by Rest.
qsort([], S, S).
qsort([X|Xs], S, Rest) :-
    partition(Xs, X, Small, Large),
    qsort(Small, S, [X|S1]),
    qsort(Large, S1, Rest).

partition([], _, [], []).
partition([Y|Ys], X, [Y|Small], Large) :- Y =< X, partition(Ys, X, Small, Large).
partition([Y|Ys], X, Small, [Y|Large]) :- Y > X, partition(Ys, X, Small, Large).

numbers([27, 74, 17, 33, 94, 18, 46, 83, 65, 2, 32, 53, 28, 85, 99, 47, 28, 82, 6, 11,
         55, 29, 39, 81, 90, 37, 10, 0, 66, 51, 7, 21, 85, 27, 31, 63, 75, 4, 95, 99,
         11, 28, 61, 74, 18, 92, 40, 53, 59, 8]).
