% Tabled relations for logicpy's tabling cross-checks (tests/core/test_tabling.py).
% The same facts and rules are written as logicpy relations there.

:- table cycle_path/2.
:- table sg/2.
:- table even_path/2, odd_path/2.

% a directed cycle of 50 nodes: 0 -> 1 -> ... -> 49 -> 0
cycle_edge(X, Y) :- between(0, 49, X), Y is (X + 1) mod 50.

% left-recursive transitive closure
cycle_path(X, Y) :- cycle_path(X, Z), cycle_edge(Z, Y).
cycle_path(X, Y) :- cycle_edge(X, Y).

% same generation over a small family tree
parent(ann, bob).   parent(ann, cat).
parent(bob, dan).   parent(bob, eve).
parent(cat, fay).   parent(fay, gus).
parent(dan, hal).
sg(X, X) :- person(X).
sg(X, Y) :- parent(XP, X), sg(XP, YP), parent(YP, Y).
person(P) :- parent(P, _) ; parent(_, P).

% mutual recursion: paths of even and odd length on a graph with a cycle
g(a, b). g(b, c). g(c, a). g(c, d).
even_path(X, X) :- g(X, _) ; g(_, X).
even_path(X, Y) :- odd_path(X, Z), g(Z, Y).
odd_path(X, Y) :- even_path(X, Z), g(Z, Y).

% negation over tabled left-recursive closures: a chain a -> b -> c -> d, and g's graph
:- table chain_path/2, g_path/2.
chain(a, b). chain(b, c). chain(c, d).
chain_path(X, Y) :- chain_path(X, Z), chain(Z, Y).
chain_path(X, Y) :- chain(X, Y).
g_path(X, Y) :- g_path(X, Z), g(Z, Y).
g_path(X, Y) :- g(X, Y).

% stratified negation inside a tabled relation, of the table its own evaluation is filling
:- table twice/1, farthest/1.
twice(X) :- chain_path(a, X), \+ chain_path(a, X).
farthest(X) :- chain_path(a, X), \+ (chain_path(a, Y), chain(X, Y)).
