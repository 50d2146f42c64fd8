% A counter and a stack in the database, changed by assert and retract.
:- dynamic counter/1.
:- dynamic item/1.

counter(0).

bump :- retract(counter(N)), N1 is N + 1, assertz(counter(N1)).
push(X) :- asserta(item(X)).
pop(X) :- retract(item(X)).
