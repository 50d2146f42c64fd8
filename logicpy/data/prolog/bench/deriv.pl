% Symbolic differentiation with respect to x of four expressions: a product of sums
% (ops8), ten x's divided left to right (divide10), ten nested logarithms (log10) and
% ten x's multiplied left to right (times10). The derivatives are left unsimplified, so the answers
% are large terms built by a few rules each.
%
% run(Times, [D1, D2, D3, D4]): the four derivatives, computed Times times.
% bench(Ds): run/2 at the benchmark's size.

bench(Ds) :- run(1000, Ds).

run(Times, Ds) :-
    ( between(2, Times, _), derivatives(_), fail ; true ),
    derivatives(Ds).

derivatives([D1, D2, D3, D4]) :-
    d((x + 1) * ((x ^ 2 + 2) * (x ^ 3 + 3)), x, D1),
    d(((((((((x / x) / x) / x) / x) / x) / x) / x) / x) / x, x, D2),
    d(log(log(log(log(log(log(log(log(log(log(x)))))))))), x, D3),
    d(((((((((x * x) * x) * x) * x) * x) * x) * x) * x) * x, x, D4).

% d(F, X, D): D is the derivative of F with respect to X.
d(U + V, X, DU + DV) :- !, d(U, X, DU), d(V, X, DV).
d(U - V, X, DU - DV) :- !, d(U, X, DU), d(V, X, DV).
d(U * V, X, DU * V + U * DV) :- !, d(U, X, DU), d(V, X, DV).
d(U / V, X, (DU * V - U * DV) / V ^ 2) :- !, d(U, X, DU), d(V, X, DV).
d(U ^ N, X, DU * N * U ^ N1) :- !, integer(N), N1 is N - 1, d(U, X, DU).
d(- U, X, - DU) :- !, d(U, X, DU).
d(exp(U), X, exp(U) * DU) :- !, d(U, X, DU).
d(log(U), X, DU / U) :- !, d(U, X, DU).
d(X, X, 1) :- !.
d(_, _, 0).
