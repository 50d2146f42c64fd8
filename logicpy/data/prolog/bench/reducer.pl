% A combinator reducer: lambda terms are compiled to the combinators S, K and I by
% bracket abstraction, then reduced lazily (leftmost outermost) to weak head normal form.
% Church numerals are counted by applying them to a primitive successor `inc` and 0.
%
% Terms: a variable name (an atom), lam(X, Body), ap(F, A), the numeral num(N) (compiled
% from its lambda term), and the primitives inc and integers.
%
% run(Times, Values): the values of the expressions of expressions/1, each compiled and
% reduced Times times.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(4, A).

run(Times, Values) :-
    ( between(2, Times, _), values(_), fail ; true ),
    values(Values).

values(Values) :- findall(V, ( expression(E), evaluate(E, V) ), Values).

% 2^5, 3^4, 5 * 7, (2 + 3)^3, with plus, times and power on Church numerals.
expression(ap(ap(power, num(2)), num(5))).
expression(ap(ap(power, num(3)), num(4))).
expression(ap(ap(times, num(5)), num(7))).
expression(ap(ap(power, ap(ap(plus, num(2)), num(3))), num(3))).

definition(plus, lam(m, lam(n, lam(f, lam(x, ap(ap(m, f), ap(ap(n, f), x))))))).
definition(times, lam(m, lam(n, lam(f, ap(m, ap(n, f)))))).
definition(power, lam(b, lam(e, ap(e, b)))).

evaluate(E, V) :-
    expand(E, Lambda),
    compile(Lambda, C),
    whnf(ap(ap(C, inc), 0), V).

% expand(E, L): the named definitions and numerals replaced by their lambda terms.
expand(num(N), lam(f, lam(x, Body))) :- !, numeral_body(N, Body).
expand(ap(F, A), ap(F1, A1)) :- !, expand(F, F1), expand(A, A1).
expand(lam(X, B), lam(X, B1)) :- !, expand(B, B1).
expand(Name, L) :- definition(Name, D), !, expand(D, L).
expand(X, X).

numeral_body(0, x) :- !.
numeral_body(N, ap(f, B)) :- M is N - 1, numeral_body(M, B).

% compile(L, C): C, made of s, k, i and ap, behaves as the lambda term L.
compile(lam(X, B), C) :- !, compile(B, B1), abstract(X, B1, C).
compile(ap(F, A), ap(F1, A1)) :- !, compile(F, F1), compile(A, A1).
compile(X, X).

% abstract(X, C, D): D applied to a term T behaves as C with T for X.
abstract(X, C, ap(k, C)) :- free_of(X, C), !.
abstract(X, X, i) :- !.
abstract(X, ap(F, A), ap(ap(s, F1), A1)) :- abstract(X, F, F1), abstract(X, A, A1).

free_of(X, ap(F, A)) :- !, free_of(X, F), free_of(X, A).
free_of(X, Y) :- X \== Y.

% whnf(T, V): T reduced until its head is no redex; numbers and combinators with too few
% arguments are values.
whnf(ap(F, A), V) :- !, whnf(F, F1), apply(F1, A, V).
whnf(V, V).

apply(i, A, V) :- whnf(A, V).
apply(k, A, ap(k, A)).
apply(ap(k, C), _, V) :- whnf(C, V).
apply(s, F, ap(s, F)).
apply(ap(s, F), G, ap(ap(s, F), G)).
apply(ap(ap(s, F), G), A, V) :- whnf(ap(ap(F, A), ap(G, A)), V).
apply(inc, A, V) :- whnf(A, N), V is N + 1.
