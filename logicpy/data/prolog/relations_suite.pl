% The SWI-Prolog side of bench/bench_shapes.py: each relation of that suite written as
% Prolog clauses, with a goal row_NAME(A) doing the row's work; A is the answer compared
% with logicpy's.

% Peano arithmetic: z, s(z), s(s(z)), ...
peano(0, z) :- !.
peano(N, s(P)) :- M is N - 1, peano(M, P).

peano_int(z, 0).
peano_int(s(P), N) :- peano_int(P, M), N is M + 1.

add(z, Y, Y).
add(s(X), Y, s(Z)) :- add(X, Y, Z).

mul(z, _, z).
mul(s(X), Y, Z) :- mul(X, Y, P), add(P, Y, Z).

row_peano_add(A) :- peano(60, N), findall(X-Y, add(X, Y, N), Splits), length(Splits, A).
row_peano_mul(A) :- peano(25, N), mul(N, N, P), peano_int(P, A).

% simply typed lambda calculus: terms v(Name), lam(Name, Body), ap(F, X); types o and
% arrow(A, B); the environment a list of Name-Type.
type_of(Env, v(X), T) :- lookup(Env, X, T).
type_of(Env, lam(X, B), arrow(A, R)) :- type_of([X-A|Env], B, R).
type_of(Env, ap(F, X), R) :- type_of(Env, F, arrow(A, R)), type_of(Env, X, A).

lookup([Y-T0|Env], X, T) :- ( X = Y, T = T0 ; dif(X, Y), lookup(Env, X, T) ).

numeral(0, v(x)) :- !.
numeral(N, ap(v(f), B)) :- M is N - 1, numeral(M, B).

% twenty numerals, each applied to a composition of the successor with itself
typed_terms(Ts) :-
    findall(ap(lam(f, lam(x, B)), lam(y, ap(v(g), ap(v(g), v(y))))), ( between(1, 20, N), numeral(N, B) ), Ts).

type_all(_, [], []).
type_all(Env, [T|Ts], [Ty|Tys]) :- type_of(Env, T, Ty), type_all(Env, Ts, Tys).

row_typecheck(A) :- typed_terms(Ts), type_all([g-arrow(o, o)], Ts, A).

% an interpreter of boolean expressions: var(P) (the value at Peano position P of the
% environment), and/or/xor of two, not of one
value(var(P), Env, V) :- at(P, Env, V).
value(and(X, Y), Env, V) :- value(X, Env, A), value(Y, Env, B), and(A, B, V).
value(or(X, Y), Env, V) :- value(X, Env, A), value(Y, Env, B), or(A, B, V).
value(xor(X, Y), Env, V) :- value(X, Env, A), value(Y, Env, B), xor(A, B, V).
value(not(X), Env, V) :- value(X, Env, A), neg(A, V).

and(0, 0, 0). and(0, 1, 0). and(1, 0, 0). and(1, 1, 1).
or(0, 0, 0). or(0, 1, 1). or(1, 0, 1). or(1, 1, 1).
xor(0, 0, 0). xor(0, 1, 1). xor(1, 0, 1). xor(1, 1, 0).
neg(0, 1). neg(1, 0).

at(z, [V|_], V).
at(s(P), [_|Env], V) :- at(P, Env, V).

% expression(D, I, E): the tree of depth D whose leaves start at variable I mod 6
expression(0, I, var(P)) :- !, J is I mod 6, peano(J, P).
expression(D, I, E) :-
    D1 is D - 1, I1 is I * 2, I2 is I * 2 + 1,
    expression(D1, I1, X), expression(D1, I2, Y),
    K is D mod 4,
    node(K, X, Y, E).
node(0, X, Y, xor(X, Y)).
node(1, X, Y, and(X, Y)).
node(2, X, Y, or(X, not(Y))).
node(3, X, Y, xor(X, Y)).

environments(Envs) :- findall([A,B,C,D,E,F], ( member(A,[0,1]), member(B,[0,1]), member(C,[0,1]),
                                             member(D,[0,1]), member(E,[0,1]), member(F,[0,1]) ), Envs).

row_interpreter(A) :- expression(8, 1, E), environments(Envs), findall(V, ( member(Env, Envs), value(E, Env, V) ), A).

% towers of Hanoi with a Peano count of discs; the moves appended
hanoi(z, _, _, _, []).
hanoi(s(N), From, To, Via, Moves) :-
    hanoi(N, From, Via, To, Before),
    hanoi(N, Via, To, From, After),
    app(Before, [From-To|After], Moves).

app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).

row_hanoi(A) :- peano(9, N), hanoi(N, a, c, b, Moves), length(Moves, A).

% quicksort with a partition by comparison, the halves appended
qsort([], []).
qsort([X|Xs], S) :- partition(Xs, X, L, G), qsort(L, SL), qsort(G, SG), app(SL, [X|SG], S).

partition([], _, [], []).
partition([Y|Ys], X, [Y|L], G) :- Y =< X, partition(Ys, X, L, G).
partition([Y|Ys], X, L, [Y|G]) :- Y > X, partition(Ys, X, L, G).

shuffled(L) :- findall(X, ( between(0, 199, I), X is (I * 7919 + 13) mod 1000 ), L).

row_quicksort(A) :- shuffled(L), qsort(L, A).

% flattening a binary tree leaf(X) / node(L, R) into the list of its leaves: forwards
% with a difference list, on a full tree; backwards (every tree with the given leaves)
% by splitting the list in two non-empty parts first
flat(leaf(X), [X|Rest], Rest).
flat(node(L, R), Xs, Rest) :- flat(L, Xs, Mid), flat(R, Mid, Rest).

unflat(leaf(X), [X]).
unflat(node(L, R), Xs) :- app([A|As], [B|Bs], Xs), unflat(L, [A|As]), unflat(R, [B|Bs]).

full_tree(0, I, leaf(I)) :- !.
full_tree(D, I, node(L, R)) :- D1 is D - 1, I1 is I * 2, I2 is I * 2 + 1, full_tree(D1, I1, L), full_tree(D1, I2, R).

row_flatten(A) :- full_tree(9, 1, T), flat(T, A, []).
row_flatten_backwards(A) :- findall(T, unflat(T, [1,2,3,4,5,6,7,8]), Ts), length(Ts, A).

% the zebra puzzle: houses h(Colour, Nation, Pet, Drink, Smoke), left to right
right_of(X, Y, [Y, X|_]).
right_of(X, Y, [_|Hs]) :- right_of(X, Y, Hs).
next_to(X, Y, Hs) :- right_of(X, Y, Hs).
next_to(X, Y, Hs) :- right_of(Y, X, Hs).
in(X, [X|_]).
in(X, [_|Xs]) :- in(X, Xs).

zebra(Owner, Drinker) :-
    Hs = [h(_, norwegian, _, _, _), _, h(_, _, _, milk, _), _, _],
    in(h(red, english, _, _, _), Hs),
    in(h(_, spanish, dog, _, _), Hs),
    in(h(green, _, _, coffee, _), Hs),
    in(h(_, ukrainian, _, tea, _), Hs),
    right_of(h(green, _, _, _, _), h(ivory, _, _, _, _), Hs),
    in(h(_, _, snails, _, oldgold), Hs),
    in(h(yellow, _, _, _, kools), Hs),
    next_to(h(_, _, _, _, chesterfield), h(_, _, fox, _, _), Hs),
    next_to(h(_, _, _, _, kools), h(_, _, horse, _, _), Hs),
    in(h(_, _, _, juice, luckystrike), Hs),
    in(h(_, japanese, _, _, parliament), Hs),
    next_to(h(_, norwegian, _, _, _), h(blue, _, _, _, _), Hs),
    in(h(_, Owner, zebra, _, _), Hs),
    in(h(_, Drinker, _, water, _), Hs).

row_zebra(A) :- findall(O-D, zebra(O, D), A).

% paths in a grid: node I*10+J has edges to the node below and the node to its right
edge(X, Y) :- X < 66, I is X // 10, J is X mod 10, ( I < 6, Y is X + 10 ; J < 6, Y is X + 1 ).

path(X, X, [X]).
path(X, Y, [X|P]) :- edge(X, Z), path(Z, Y, P).

row_paths(A) :- findall(P, path(0, 66, P), Ps), length(Ps, A).

% binary search trees: t(Left, Key, Right) or nil; every key inserted, then every key
% looked up, then the keys in order
insert(nil, K, t(nil, K, nil)).
insert(t(L, K0, R), K, t(L1, K0, R)) :- K < K0, insert(L, K, L1).
insert(t(L, K0, R), K, t(L, K0, R1)) :- K > K0, insert(R, K, R1).
insert(t(L, K, R), K, t(L, K, R)).

insert_all([], T, T).
insert_all([K|Ks], T0, T) :- insert(T0, K, T1), insert_all(Ks, T1, T).

found(t(_, K, _), K).
found(t(L, K0, _), K) :- K < K0, found(L, K).
found(t(_, K0, R), K) :- K > K0, found(R, K).

found_all(_, []).
found_all(T, [K|Ks]) :- found(T, K), found_all(T, Ks).

in_order(nil, []).
in_order(t(L, K, R), Ks) :- in_order(L, Ls), in_order(R, Rs), app(Ls, [K|Rs], Ks).

row_bst(A) :- shuffled(L), insert_all(L, nil, T), found_all(T, L), in_order(T, A).

% naive reverse of 100 with a user append
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).

row_nrev(A) :- numlist(1, 100, L), nrev(L, A).
