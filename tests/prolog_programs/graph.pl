% A tabled, left-recursive path over a graph with a cycle.
:- table path/2.

edge(a, b).
edge(b, c).
edge(c, a).
edge(c, d).
edge(e, f).

path(X, Y) :- path(X, Z), edge(Z, Y).
path(X, Y) :- edge(X, Y).

% Same generation, tabled too.
:- table same_gen/2.
person(P) :- edge(P, _).
person(P) :- edge(_, P).
same_gen(X, X) :- person(X).
same_gen(X, Y) :- edge(PX, X), same_gen(PX, PY), edge(PY, Y).
