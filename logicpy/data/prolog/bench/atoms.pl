% Atom and number built-ins in a loop: each number I is written as codes, made an atom,
% measured, prefixed, cut and read back as a number.
%
% run(N, Length-Last): for I in 1..N; Length is the sum of the lengths of the atoms
% written for each I, and Last is the prefixed atom made for N.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(5000, A).

run(N, Length-Last) :- loop(1, N, 0, Length, none, Last).

loop(I, N, Length, Length, Last, Last) :- I > N, !.
loop(I, N, Length0, Length, _, Last) :-
    number_codes(I, Codes),
    atom_codes(Atom, Codes),
    atom_length(Atom, L),
    atom_concat(n, Atom, Prefixed),
    sub_atom(Prefixed, 1, L, 0, Digits),
    atom_number(Digits, J),
    J =:= I,
    Length1 is Length0 + L,
    I1 is I + 1,
    loop(I1, N, Length1, Length, Prefixed, Last).
