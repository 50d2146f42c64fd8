% Flattening a nested list: a balanced tree of lists (each node [Left, [], [Right]]) is
% built, then flattened with a difference list into the list of its leaves.
%
% run(Depth, Times, Length-Sum): a tree of 2^Depth leaves 0, 1, ..., built and flattened
% Times times; the flat list has Length leaves summing to Sum.
% bench(A): run/3 at the benchmark's size.

bench(A) :- run(11, 4, A).

run(Depth, Times, Length-Sum) :-
    ( between(2, Times, _), tree(Depth, 0, _, T0), flat(T0, _), fail ; true ),
    tree(Depth, 0, _, T),
    flat(T, L),
    length(L, Length),
    sum_list(L, Sum).

% tree(Depth, N0, N, T): T holds the leaves N0 .. N - 1.
tree(0, N0, N, N0) :- !, N is N0 + 1.
tree(D, N0, N, [L, [], [R]]) :-
    D1 is D - 1,
    tree(D1, N0, N1, L),
    tree(D1, N1, N, R).

flat(T, L) :- flat(T, L, []).

flat([], L, L) :- !.
flat([X|Xs], L0, L) :- !, flat(X, L0, L1), flat(Xs, L1, L).
flat(X, [X|L], L).
