% A propositional theorem prover in the sequent calculus: a sequent Left |- Right holds
% when a proposition is on both sides once every connective (not, and, or, imp) has been
% taken apart by its rules; rules with two premises split the proof. It decides a list of
% formulas: classic tautologies, non-tautologies, and the pigeonhole formula (4 pigeons
% do not fit in 3 holes one to a hole), whose proofs grow fast.
%
% run(Times, Holes, Verdicts): yes or no for each formula, decided Times times, the
% pigeonhole formula for Holes + 1 pigeons and Holes holes.
% bench(A): run/3 at the benchmark's size.

bench(A) :- run(1, 3, A).

run(Times, Holes, Verdicts) :-
    formulas(Holes, Fs),
    ( between(2, Times, _), verdicts(Fs, _), fail ; true ),
    verdicts(Fs, Verdicts).

verdicts([], []).
verdicts([F|Fs], [V|Vs]) :- ( provable(F) -> V = yes ; V = no ), verdicts(Fs, Vs).

provable(F) :- sequent([], [F], [], []).

% sequent(Left, Right, LeftProps, RightProps): the formulas Left and the propositions
% LeftProps entail one of Right or RightProps. Left is taken apart first.
sequent([F|Left], Right, LP, RP) :- left(F, Left, Right, LP, RP).
sequent([], [F|Right], LP, RP) :- right(F, Right, LP, RP).

left(not(A), Left, Right, LP, RP) :- !, sequent(Left, [A|Right], LP, RP).
left(and(A, B), Left, Right, LP, RP) :- !, sequent([A, B|Left], Right, LP, RP).
left(or(A, B), Left, Right, LP, RP) :- !,
    sequent([A|Left], Right, LP, RP),
    sequent([B|Left], Right, LP, RP).
left(imp(A, B), Left, Right, LP, RP) :- !,
    sequent(Left, [A|Right], LP, RP),
    sequent([B|Left], Right, LP, RP).
left(P, Left, Right, LP, RP) :- ( memberchk(P, RP) -> true ; sequent(Left, Right, [P|LP], RP) ).

right(not(A), Right, LP, RP) :- !, sequent([A], Right, LP, RP).
right(and(A, B), Right, LP, RP) :- !,
    sequent([], [A|Right], LP, RP),
    sequent([], [B|Right], LP, RP).
right(or(A, B), Right, LP, RP) :- !, sequent([], [A, B|Right], LP, RP).
right(imp(A, B), Right, LP, RP) :- !, sequent([A], [B|Right], LP, RP).
right(P, Right, LP, RP) :- ( memberchk(P, LP) -> true ; sequent([], Right, LP, [P|RP]) ).

formulas(Holes, [imp(p, p),
          or(p, not(p)),
          imp(imp(imp(p, q), p), p),
          imp(and(p, or(q, r)), or(and(p, q), and(p, r))),
          imp(not(and(p, q)), or(not(p), not(q))),
          imp(or(p, q), and(p, q)),
          imp(imp(p, q), imp(q, p)),
          imp(and(imp(p, q), imp(q, r)), imp(p, r)),
          Pigeons]) :-
    Pigeons1 is Holes + 1,
    pigeonhole(Pigeons1, Holes, Pigeons).

% pigeonhole(P, H, F): F says that if each of P pigeons is in one of H holes, two share a
% hole; in(I, J) is pigeon I in hole J. A tautology when P > H.
pigeonhole(P, H, imp(Placed, Shared)) :-
    findall(Any, ( between(1, P, I), findall(in(I, J), between(1, H, J), Holes), disjunction(Holes, Any) ), Each),
    conjunction(Each, Placed),
    findall(and(in(I, J), in(K, J)), ( between(1, H, J), between(1, P, I), between(1, P, K), I < K ), Pairs),
    disjunction(Pairs, Shared).

conjunction([F], F) :- !.
conjunction([F|Fs], and(F, G)) :- conjunction(Fs, G).

disjunction([F], F) :- !.
disjunction([F|Fs], or(F, G)) :- disjunction(Fs, G).
