/*  gods_paradox.pl -- the three gods with self-referential questions (exploding heads).

    Written for logicpy, in the vocabulary of gods.pl plus one question:

      answer_is(U)   "your answer to this question is U" (U is ja or da): the answer of the
                     god actually asked, to the whole question put to him, also inside an
                     embedded query_position_question

    A world is w([pos(P, God, Free), ...], Language) for ONE step: Free is a random god's
    free answer at this step (ja, da, or silent when he may say nothing), none for the
    others.  A question's truth depends on the hypothesised answer A of the god asked.
    Truly may answer U only if U asserts the question's truth given U, Falsely only if U
    denies it; Random says his free answer.  With no consistent word a god is silent;
    with two, either may come.  This file shares no code with logicpy: it is a second
    engine for the same semantics, checked against it by tests/puzzles/gods.
*/

:- op(500, xfy, xor).

%!  evaluate(+Question, +Hypothesis, +World): Question is true when the asked god answers Hypothesis.
evaluate(true, _, _).
evaluate(fail, _, _) :- fail.
evaluate(at_position_question(P, G), _, w(Ps, _)) :-
    memberchk(pos(P, G0, _), Ps), G0 == G.
evaluate(answer_is(U), A, _) :-
    U == A.
evaluate(query_position_question(P, Q), A, W) :-
    says(P, Q, A, W, da).
evaluate((Q1, Q2), A, W) :-
    evaluate(Q1, A, W), evaluate(Q2, A, W).
evaluate((Q1 ; Q2), A, W) :-
    (   evaluate(Q1, A, W) -> true ; evaluate(Q2, A, W) ).
evaluate(Q1 xor Q2, A, W) :-
    (   evaluate(Q1, A, W) -> \+ evaluate(Q2, A, W) ; evaluate(Q2, A, W) ).

%!  says(+P, +Question, +Hypothesis, +World, -Utterance): what the god at P would utter to
%   Question, whose truth is taken under the asked god's Hypothesis (a hypothetical: no fixed point).
says(P, Q, A, W, U) :-
    W = w(Ps, Language),
    memberchk(pos(P, God, Free), Ps),
    (   evaluate(Q, A, W) -> T = true ; T = fail ),
    word(God, T, Language, Free, U).

%!  word(+God, +Truth, +Language, +Free, -Utterance)
word(truly, T, L, _, U) :- utterance_for(T, L, U).
word(falsely, T, L, _, U) :- negation(T, N), utterance_for(N, L, U).
word(random, _, _, Free, Free).

negation(true, fail).
negation(fail, true).

utterance_for(true, da_yes, da).
utterance_for(fail, da_yes, ja).
utterance_for(true, da_no, ja).
utterance_for(fail, da_no, da).

%!  utterance(+P, +Question, +World, -Utterance): what the god at P, asked Question, may utter.
utterance(P, Q, W, U) :-
    (   member(U, [ja, da]), says(P, Q, U, W, U)
    *-> true
    ;   U = silent
    ).
