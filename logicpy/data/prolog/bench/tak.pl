% Takeuchi's function, a deeply recursive function of three integers:
% tak(X, Y, Z) is Z when X =< Y, else tak(tak(X-1, Y, Z), tak(Y-1, Z, X), tak(Z-1, X, Y)).
% tak(18, 12, 6) makes 63,609 calls and is 7.
%
% run(Times, A): tak(18, 12, 6) computed Times times; A is its value.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(1, A).

run(Times, A) :-
    ( between(2, Times, _), tak(18, 12, 6, _), fail ; true ),
    tak(18, 12, 6, A).

tak(X, Y, Z, A) :- X =< Y, !, Z = A.
tak(X, Y, Z, A) :-
    X1 is X - 1, Y1 is Y - 1, Z1 is Z - 1,
    tak(X1, Y, Z, A1),
    tak(Y1, Z, X, A2),
    tak(Z1, X, Y, A3),
    tak(A1, A2, A3, A).
