% SEND + MORE = MONEY: give each letter a different digit so that the sum holds, leading
% digits not zero. The digits are chosen column by column from the right, each column's
% sum checked (with its carry) as soon as its digits are known. All solutions.
%
% run(Times, Solutions): the search done Times times; Solutions are the digits
% [S,E,N,D,M,O,R,Y] of every solution.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(2, A).

run(Times, Solutions) :-
    ( between(2, Times, _), solve(_), fail ; true ),
    findall(Letters, solve(Letters), Solutions).

solve([S,E,N,D,M,O,R,Y]) :-
    Digits = [0,1,2,3,4,5,6,7,8,9],
    pick(D, Digits, Ds1),
    pick(E, Ds1, Ds2),
    column(D, E, 0, Y, C1),
    pick(Y, Ds2, Ds3),
    pick(N, Ds3, Ds4),
    pick(R, Ds4, Ds5),
    column(N, R, C1, E, C2),
    pick(O, Ds5, Ds6),
    column(E, O, C2, N, C3),
    pick(S, Ds6, Ds7), S > 0,
    pick(M, Ds7, _), M > 0,
    column(S, M, C3, O, M).

% column(A, B, Carry, Digit, CarryOut): A + B + Carry has last digit Digit (bound or not).
column(A, B, Carry, Digit, CarryOut) :-
    Sum is A + B + Carry,
    Digit0 is Sum mod 10,
    Digit = Digit0,
    CarryOut is Sum // 10.

pick(X, [X|Xs], Xs).
pick(X, [Y|Ys], [Y|Zs]) :- pick(X, Ys, Zs).
