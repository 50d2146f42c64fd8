% Serialise: replace each item of a list by its rank among the list's distinct items in
% the standard order (1 for the least). The items are paired with unbound ranks, the
% pairs put in an ordered binary tree where equal items share one rank, and the tree
% walked in order to number them.
%
% run(Times, Ranks): the ranks of the codes of a palindrome, found Times times.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(150, A).

run(Times, Ranks) :-
    atom_codes('able was i ere i saw elba, a man a plan a canal panama', Codes),
    ( between(2, Times, _), serialise(Codes, _), fail ; true ),
    serialise(Codes, Ranks).

serialise(Items, Ranks) :-
    pair_up(Items, Ranks, Pairs),
    build(Pairs, void, Tree),
    number_tree(Tree, 1, _).

pair_up([], [], []).
pair_up([X|Xs], [R|Rs], [X-R|Ps]) :- pair_up(Xs, Rs, Ps).

build([], Tree, Tree).
build([P|Ps], Tree0, Tree) :- insert(P, Tree0, Tree1), build(Ps, Tree1, Tree).

% insert(Item-Rank, Tree0, Tree): an item already in the tree shares that node's rank.
insert(P, void, t(void, P, void)).
insert(X-R, t(L, Y-S, G), Tree) :-
    compare(Order, X, Y),
    insert(Order, X-R, L, Y-S, G, Tree).

insert(=, _-R, L, Y-R, G, t(L, Y-R, G)).
insert(<, P, L, Q, G, t(L1, Q, G)) :- insert(P, L, L1).
insert(>, P, L, Q, G, t(L, Q, G1)) :- insert(P, G, G1).

number_tree(void, N, N).
number_tree(t(L, _-R, G), N0, N) :-
    number_tree(L, N0, R),
    R1 is R + 1,
    number_tree(G, R1, N).
