% Polynomial arithmetic: (1 + x + y + z) raised to the 10th power, by repeated squaring.
% A polynomial is a number or poly(V, Terms): V its main variable and Terms the list of
% term(Exponent, Coefficient) by rising exponent, each coefficient a polynomial in the
% variables after V in the standard order (here y and z after x, z after y).
%
% run(N, P): (1 + x + y + z) to the Nth power.
% bench(P): run/2 at the benchmark's size.
% coefficient_sum(P, S): the sum of P's coefficients (its value at x = y = z = 1).

bench(P) :- run(10, P).

run(N, P) :- base(B), power(N, B, P).

base(poly(x, [term(0, poly(y, [term(0, poly(z, [term(0, 1), term(1, 1)])), term(1, 1)])), term(1, 1)])).

% power(N, P, R): R is P to the Nth power.
power(0, _, 1) :- !.
power(1, P, P) :- !.
power(N, P, R) :-
    N mod 2 =:= 0, !,
    H is N // 2,
    power(H, P, Q),
    mul(Q, Q, R).
power(N, P, R) :-
    M is N - 1,
    power(M, P, Q),
    mul(P, Q, R).

% add(P, Q, R): R is P + Q.
add(poly(V, Ts), poly(V, Us), poly(V, Ws)) :- !, add_terms(Ts, Us, Ws).
add(poly(V, Ts), poly(W, Us), poly(V, Ws)) :- V @< W, !, add_constant(Ts, poly(W, Us), Ws).
add(poly(V, Ts), Q, poly(V, Ws)) :- number(Q), !, add_constant(Ts, Q, Ws).
add(P, poly(W, Us), poly(W, Ws)) :- !, add_constant(Us, P, Ws).
add(P, Q, R) :- R is P + Q.

% add_constant(Terms, C, Sum): C added to the term of exponent 0.
add_constant([term(0, C0)|Ts], C, [term(0, C1)|Ts]) :- !, add(C0, C, C1).
add_constant(Ts, C, [term(0, C)|Ts]).

add_terms([], Us, Us) :- !.
add_terms(Ts, [], Ts) :- !.
add_terms([term(E, C)|Ts], [term(E, D)|Us], [term(E, S)|Ws]) :- !,
    add(C, D, S),
    add_terms(Ts, Us, Ws).
add_terms([term(E, C)|Ts], [term(F, D)|Us], [term(E, C)|Ws]) :- E < F, !,
    add_terms(Ts, [term(F, D)|Us], Ws).
add_terms(Ts, [U|Us], [U|Ws]) :- add_terms(Ts, Us, Ws).

% mul(P, Q, R): R is P * Q.
mul(poly(V, Ts), poly(V, Us), poly(V, Ws)) :- !, mul_terms(Ts, Us, Ws).
mul(poly(V, Ts), poly(W, Us), poly(V, Ws)) :- V @< W, !, scale(Ts, poly(W, Us), Ws).
mul(poly(V, Ts), Q, poly(V, Ws)) :- number(Q), !, scale(Ts, Q, Ws).
mul(P, poly(W, Us), poly(W, Ws)) :- !, scale(Us, P, Ws).
mul(P, Q, R) :- R is P * Q.

% scale(Terms, C, Scaled): every coefficient times C.
scale([], _, []).
scale([term(E, C)|Ts], F, [term(E, D)|Us]) :- mul(C, F, D), scale(Ts, F, Us).

mul_terms([], _, []).
mul_terms([term(E, C)|Ts], Us, Ws) :-
    shift_scale(Us, E, C, Vs),
    mul_terms(Ts, Us, Rest),
    add_terms(Vs, Rest, Ws).

% shift_scale(Terms, E, C, Out): every term times C times the variable to the Eth power.
shift_scale([], _, _, []).
shift_scale([term(F, D)|Us], E, C, [term(G, P)|Vs]) :-
    G is E + F,
    mul(C, D, P),
    shift_scale(Us, E, C, Vs).

coefficient_sum(poly(_, Ts), S) :- !, terms_sum(Ts, 0, S).
coefficient_sum(S, S).

terms_sum([], S, S).
terms_sum([term(_, C)|Ts], S0, S) :- coefficient_sum(C, S1), S2 is S0 + S1, terms_sum(Ts, S2, S).
