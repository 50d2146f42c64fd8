% A rewriting tautology checker in the manner of Boyer's theorem-prover benchmark: a
% formula over ground terms is rewritten bottom up with a table of lemmas (each lemma's
% left side matched against the term, the first that matches applied, its result
% rewritten again), which turns the connectives into if-then-else; the result is then
% checked to be a tautology by splitting on each test, assuming it true in one branch
% and false in the other.
%
% run(Times, N, Verdict-Size): the theorem for a chain of N formulas rewritten and checked
% Times times; Verdict is true when it is a tautology, Size the count of nodes of the
% rewritten term.
% bench(A): run/3 at the benchmark's size.

bench(A) :- run(1, 5, A).

run(Times, N, Verdict-Size) :-
    theorem(N, T),
    ( between(2, Times, _), rewrite(T, R0), tautology(R0, _), fail ; true ),
    rewrite(T, R),
    tautology(R, Verdict),
    size(R, 0, Size).

% theorem(N, T): if each of the first N formulas below implies the next, the first
% implies the N-th. Each formula is about terms that the lemmas rewrite too.
theorem(N, implies(Chain, implies(First, Last))) :-
    length(Fs, N),
    append(Fs, _, [f(plus(plus(a, b), plus(c, zero))),
                   f(times(times(a, b), plus(c, d))),
                   f(reverse(append(append(a, b), nil))),
                   equal(plus(a, b), difference(x, y)),
                   lessp(remainder(a, b), member(a, length(b)))]),
    Fs = [First|_],
    last(Fs, Last),
    chain(Fs, Chain).

% chain(Fs, C): C is the conjunction of F1 implies F2, F2 implies F3, ...
chain([F, G], implies(F, G)) :- !.
chain([F, G|Fs], and(implies(F, G), C)) :- chain([G|Fs], C).

tautology(T, Verdict) :- ( taut(T, [], []) -> Verdict = true ; Verdict = false ).

% taut(T, Trues, Falses): T is true whatever its atomic tests, given those assumed.
taut(T, Trues, _) :- truth(T, Trues), !.
taut(T, _, Falses) :- falsity(T, Falses), !, fail.
taut(if(Test, Then, Else), Trues, Falses) :-
    (   truth(Test, Trues) -> taut(Then, Trues, Falses)
    ;   falsity(Test, Falses) -> taut(Else, Trues, Falses)
    ;   taut(Then, [Test|Trues], Falses),
        taut(Else, Trues, [Test|Falses])
    ).

truth(t, _) :- !.
truth(T, Trues) :- memberchk(T, Trues).

falsity(f, _) :- !.
falsity(T, Falses) :- memberchk(T, Falses).

% rewrite(T, R): T's arguments rewritten, then the first lemma that matches applied and
% its result rewritten in turn.
rewrite(T, T) :- atomic(T), !.
rewrite(T, R) :-
    T =.. [F|Args],
    rewrite_all(Args, Args1),
    T1 =.. [F|Args1],
    (   lemma(T1, T2)
    ->  rewrite(T2, R)
    ;   R = T1
    ).

rewrite_all([], []).
rewrite_all([A|As], [R|Rs]) :- rewrite(A, R), rewrite_all(As, Rs).

size(T, N0, N) :- atomic(T), !, N is N0 + 1.
size(T, N0, N) :- T =.. [_|Args], N1 is N0 + 1, size_all(Args, N1, N).

size_all([], N, N).
size_all([A|As], N0, N) :- size(A, N0, N1), size_all(As, N1, N).

% lemma(Left, Right): Left rewrites to Right (terms are ground, so calling lemma/2
% matches Left against them).
lemma(and(P, Q), if(P, if(Q, t, f), f)).
lemma(or(P, Q), if(P, t, if(Q, t, f))).
lemma(not(P), if(P, f, t)).
lemma(implies(P, Q), if(P, if(Q, t, f), t)).
lemma(iff(P, Q), and(implies(P, Q), implies(Q, P))).
lemma(if(if(A, B, C), D, E), if(A, if(B, D, E), if(C, D, E))).
lemma(equal(X, X), t).
lemma(equal(plus(A, B), zero), and(zerop(A), zerop(B))).
lemma(equal(plus(A, B), plus(A, C)), equal(fix(B), fix(C))).
lemma(equal(times(A, B), zero), or(zerop(A), zerop(B))).
lemma(equal(append(A, B), append(A, C)), equal(B, C)).
lemma(equal(lessp(X, Y), Z), if(lessp(X, Y), equal(t, Z), equal(f, Z))).
lemma(zerop(X), or(equal(X, zero), not(numberp(X)))).
lemma(greaterp(X, Y), lessp(Y, X)).
lemma(lesseqp(X, Y), not(lessp(Y, X))).
lemma(greatereqp(X, Y), not(lessp(X, Y))).
lemma(boolean(X), or(equal(X, t), equal(X, f))).
lemma(plus(plus(X, Y), Z), plus(X, plus(Y, Z))).
lemma(plus(X, zero), fix(X)).
lemma(times(times(X, Y), Z), times(X, times(Y, Z))).
lemma(times(X, plus(Y, Z)), plus(times(X, Y), times(X, Z))).
lemma(times(plus(X, Y), Z), plus(times(X, Z), times(Y, Z))).
lemma(difference(plus(X, Y), X), fix(Y)).
lemma(difference(X, X), zero).
lemma(append(append(X, Y), Z), append(X, append(Y, Z))).
lemma(append(nil, X), X).
lemma(reverse(append(A, B)), append(reverse(B), reverse(A))).
lemma(reverse(nil), nil).
lemma(length(reverse(X)), length(X)).
lemma(length(append(A, B)), plus(length(A), length(B))).
lemma(member(X, append(A, B)), or(member(X, A), member(X, B))).
lemma(member(X, reverse(Y)), member(X, Y)).
lemma(lessp(remainder(_, Y), Y), not(zerop(Y))).
lemma(lessp(plus(X, Y), plus(X, Z)), lessp(Y, Z)).
lemma(remainder(_, one), zero).
lemma(remainder(X, X), zero).
lemma(exp(I, plus(J, K)), times(exp(I, J), exp(I, K))).
lemma(exp(I, times(J, K)), exp(exp(I, J), K)).
lemma(fix(fix(X)), fix(X)).
