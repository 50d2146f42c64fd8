% Cryptomultiplication: a three-digit number times a two-digit number, written out
% as a long multiplication whose digits are only known to be odd (o) or even (e):
%
%        o e e
%      x   e e
%      -------
%      e o e e     (the first number times the last digit of the second)
%      e o e       (the first number times the first digit of the second)
%      -------
%      o o e e
%
% The factors' digits are chosen from their classes, then the partial products and
% their sum are computed digit by digit with carries, each product's digits checked as
% soon as they are known. Leading digits are not zero. There is one solution.
%
% run(Times, Solutions): all solutions as [A, B, P1, P2, Product], found Times times.
% bench(S): run/2 at the benchmark's size.

bench(S) :- run(2, S).

run(Times, S) :-
    ( between(2, Times, _), solve(_), fail ; true ),
    findall(X, solve(X), S).

solve([A, B, P1, P2, P]) :-
    odd(A1), nonzero(A1), even(A2), even(A3),     % A = A1 A2 A3
    even(B1), nonzero(B1), even(B2),              % B = B1 B2
    times([A3, A2, A1], B2, [C1, C2, C3, C4]),    % P1 = A * B2, lowest digit first
    even(C1), even(C2), odd(C3), even(C4), nonzero(C4),
    times([A3, A2, A1], B1, [D1, D2, D3, 0]),     % P2 = A * B1, three digits
    even(D1), odd(D2), even(D3), nonzero(D3),
    % the product: P1 plus P2 shifted one place
    sum_digits([C1, C2, C3, C4], [0, D1, D2, D3], 0, [E1, E2, E3, E4, 0]),
    even(E1), even(E2), odd(E3), odd(E4), nonzero(E4),
    number_of([A3, A2, A1], A), number_of([B2, B1], B),
    number_of([C1, C2, C3, C4], P1), number_of([D1, D2, D3], P2),
    number_of([E1, E2, E3, E4], P).

% times(Digits, M, Product): Digits (lowest first) times the digit M, one digit more.
times(Ds, M, P) :- times(Ds, M, 0, P).

times([], _, Carry, [Carry]).
times([D|Ds], M, Carry, [P|Ps]) :-
    X is D * M + Carry,
    P is X mod 10,
    C is X // 10,
    times(Ds, M, C, Ps).

% sum_digits(Xs, Ys, Carry, Sum): two numbers of as many digits (lowest first) added.
sum_digits([], [], Carry, [Carry]).
sum_digits([X|Xs], [Y|Ys], Carry, [S|Ss]) :-
    Z is X + Y + Carry,
    S is Z mod 10,
    C is Z // 10,
    sum_digits(Xs, Ys, C, Ss).

% number_of(Digits, N): the number whose digits, lowest first, are Digits.
number_of([], 0).
number_of([D|Ds], N) :- number_of(Ds, M), N is M * 10 + D.

even(0). even(2). even(4). even(6). even(8).
odd(1). odd(3). odd(5). odd(7). odd(9).

nonzero(D) :- D =\= 0.
