% The towers of Hanoi: the 2^N - 1 moves that carry N discs from peg a to peg c, built as
% a difference list, then played on three pegs, each move checked to put a disc on a
% larger one or on an empty peg.
%
% run(N, Count-Pegs): Count moves for N discs; Pegs the three pegs after playing them.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(13, A).

run(N, Count-Pegs) :-
    hanoi(N, a, c, b, Moves, []),
    length(Moves, Count),
    discs(1, N, Discs),
    play(Moves, pegs(Discs, [], []), Pegs).

% hanoi(N, From, To, Via, Moves, Rest): Moves are the moves of N discs from From to To,
% followed by Rest.
hanoi(0, _, _, _, Moves, Moves) :- !.
hanoi(N, From, To, Via, Moves, Rest) :-
    M is N - 1,
    hanoi(M, From, Via, To, Moves, [From-To|Moves1]),
    hanoi(M, Via, To, From, Moves1, Rest).

play([], Pegs, Pegs).
play([From-To|Moves], Pegs0, Pegs) :-
    peg(From, Pegs0, [Disc|Left]),
    peg(To, Pegs0, Onto),
    on_top(Disc, Onto),
    set_peg(From, Pegs0, Left, Pegs1),
    set_peg(To, Pegs1, [Disc|Onto], Pegs2),
    play(Moves, Pegs2, Pegs).

on_top(_, []).
on_top(Disc, [Top|_]) :- Disc < Top.

peg(a, pegs(A, _, _), A).
peg(b, pegs(_, B, _), B).
peg(c, pegs(_, _, C), C).

set_peg(a, pegs(_, B, C), A, pegs(A, B, C)).
set_peg(b, pegs(A, _, C), B, pegs(A, B, C)).
set_peg(c, pegs(A, B, _), C, pegs(A, B, C)).

discs(I, N, []) :- I > N, !.
discs(I, N, [I|Is]) :- J is I + 1, discs(J, N, Is).
