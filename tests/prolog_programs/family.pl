% A family database: parents, ancestors, siblings.
parent(tom, bob).
parent(tom, liz).
parent(bob, ann).
parent(bob, pat).
parent(pat, jim).
parent(liz, joe).

male(tom). male(bob). male(jim). male(joe).
female(liz). female(ann). female(pat).

father(X, Y) :- parent(X, Y), male(X).
mother(X, Y) :- parent(X, Y), female(X).
ancestor(X, Y) :- parent(X, Y).
ancestor(X, Y) :- parent(X, Z), ancestor(Z, Y).
sibling(X, Y) :- parent(P, X), parent(P, Y), dif(X, Y).
grandparent(X, Z) :- parent(X, Y), parent(Y, Z).
