% A circuit of NAND gates: a ripple-carry adder whose full adders are built only from
% two-input NAND gates (nine per full adder), simulated on every pair of 5-bit numbers;
% each sum read back from its bits is checked against arithmetic.
%
% run(Bits, Count-Total): Count additions of Bits-bit numbers, all right, Total the sum of
% their results.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(5, A).

run(Bits, Count-Total) :-
    Max is (1 << Bits) - 1,
    findall(S, ( between(0, Max, X), between(0, Max, Y), add(Bits, X, Y, S) ), Sums),
    length(Sums, Count),
    sum_list(Sums, Total).

% add(Bits, X, Y, S): S = X + Y computed by the circuit, checked.
add(Bits, X, Y, S) :-
    bits(Bits, X, Xs),
    bits(Bits, Y, Ys),
    ripple(Xs, Ys, 0, Ss),
    value(Ss, 1, 0, S),
    S =:= X + Y.

nand(0, 0, 1).
nand(0, 1, 1).
nand(1, 0, 1).
nand(1, 1, 0).

% full_adder(A, B, C, Sum, Carry): nine NAND gates.
full_adder(A, B, C, Sum, Carry) :-
    nand(A, B, N1),
    nand(A, N1, N2),
    nand(B, N1, N3),
    nand(N2, N3, Half),
    nand(Half, C, N5),
    nand(Half, N5, N6),
    nand(C, N5, N7),
    nand(N6, N7, Sum),
    nand(N1, N5, Carry).

% ripple(Xs, Ys, Carry, Ss): bits least significant first; Ss has one bit more.
ripple([], [], C, [C]).
ripple([X|Xs], [Y|Ys], C, [S|Ss]) :-
    full_adder(X, Y, C, S, C1),
    ripple(Xs, Ys, C1, Ss).

bits(0, _, []) :- !.
bits(N, X, [B|Bs]) :- B is X /\ 1, X1 is X >> 1, N1 is N - 1, bits(N1, X1, Bs).

value([], _, V, V).
value([B|Bs], W, V0, V) :- V1 is V0 + B * W, W1 is W * 2, value(Bs, W1, V1, V).
