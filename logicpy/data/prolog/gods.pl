/*  gods.pl -- Boolos' three gods ("The Hardest Logic Puzzle Ever") as a plain Prolog file.

    Written for logicpy in the vocabulary of the original Prolog solver (aduriseti/3gods),
    so that trees and questions of either file can be checked against logicpy with
    `logicpy gods crosscheck FILE.pl`.  Like the originals it declares no module: its
    predicate names (evaluate/3, query/5, ...) clash with theirs, so load each such file
    into a module of its own.

    Vocabulary
      god type     truly | falsely | random
      position     1..NumPos
      language     da_yes (da means yes) | da_no (da means no)
      world        w([pos(P, God, RandomAnswers), ...], Language); RandomAnswers is the
                   list of answers a random god gives at question 1, 2, ...: `true` when
                   the answer means yes, `fail` when it means no ([] for other gods)
      path         the answers heard so far; its length says which question is being asked
      question     true | fail
                   | at_position_question(P, G)      the god at P is of type G
                   | query_position_question(P, Q)   the god at P would answer Q with da
                   | (Q1, Q2) | (Q1 ; Q2) | Q1 xor Q2
      complexity   0 for true, fail and at_position_question; else 1 + the largest part's
      family       [pos(1, G1, _), pos(2, G2, _), ...]: one assignment of types to positions
      candidate    candidate(Family, Languages): a family, with the languages still
                   consistent with the answers heard
      tree         leaf | tree(q(P, Q), DaTree, JaTree): ask Q to the god at P, go on with
                   DaTree on da and with JaTree on ja; when random may be silent
                   (gods_silent.pl), tree(q(P, Q), DaTree, JaTree, SilentTree) as in the
                   original's random_silent.pl, and a random answer may be `silent`

    Semantics: truly utters the word for the question's truth, falsely for its negation,
    random utters its predetermined answer for this step; a nested question about what
    random would say reads that same answer.

    Search: questions are deduplicated by their exact signature (their truth in every
    world of the puzzle, each random god's answer free), built level by level of
    complexity.  Questions with equal signatures are interchangeable everywhere, so the
    deduplication loses nothing.  Asking a question whose signature is the complement of
    an earlier one only mirrors the tree, so such questions are not asked.  A branch is
    pruned once it holds more families than 2^(questions left) (3^ when random may be
    silent), and live sets proved unsolvable are remembered.
*/

:- op(500, xfy, xor).

:- dynamic distinct_q/4.        % distinct_q(Id, Question, Signature, Complexity)
:- dynamic seen_signature/2.    % seen_signature(Signature, Id)
:- dynamic universe_for/3.      % universe_for(NumPos, MaxComplexity, Families): what is built
:- dynamic universe_mask/1.     % universe_mask(AllOnes): the signature of `true`
:- dynamic unsolvable/2.        % unsolvable(QuestionsLeft, LiveSet)
:- dynamic random_may_be_silent/0.  % asserted by gods_silent.pl: random may also say nothing

% --- The world ---

is_god(truly).
is_god(falsely).
is_god(random).

is_position(NumPos, P) :- between(1, NumPos, P).

is_language(da_yes).
is_language(da_no).

is_random_answer(true).
is_random_answer(fail).
is_random_answer(silent) :- random_may_be_silent.

%!  branching(-B): the utterances a question can lead to: 2 (da, ja), or 3 with silence.
branching(B) :- ( random_may_be_silent -> B = 3 ; B = 2 ).

%!  at_position(?P, ?God, +World): the god at position P is of type God in World.
at_position(P, God, w(PosList, _)) :-
    member(pos(P, God, _), PosList).

%!  get_utterance(?Logical, ?Language, ?Utterance): the word for Logical in Language.
get_utterance(true, da_yes, da).
get_utterance(fail, da_yes, ja).
get_utterance(true, da_no,  ja).
get_utterance(fail, da_no,  da).

% --- Evaluating questions ---

%!  evaluate(+Question, +Path, +World): Question is true in World after the answers Path.
evaluate(true, _, _).
evaluate(fail, _, _) :- fail.
evaluate(at_position_question(P, G), _, World) :-
    at_position(P, G, World).
evaluate(query_position_question(P, Q), Path, World) :-
    query_position(P, Q, Path, World, da).
evaluate((Q1, Q2), Path, World) :-
    evaluate(Q1, Path, World),
    evaluate(Q2, Path, World).
evaluate((Q1 ; Q2), Path, World) :-
    (   evaluate(Q1, Path, World) -> true ; evaluate(Q2, Path, World) ).
evaluate(Q1 xor Q2, Path, World) :-
    (   evaluate(Q1, Path, World) -> \+ evaluate(Q2, Path, World) ; evaluate(Q2, Path, World) ).

%!  query(+God, +Question, +Path, +World, +RandomAnswers): God's answer means yes.
query(truly, Q, Path, World, _) :-
    evaluate(Q, Path, World).
query(falsely, Q, Path, World, _) :-
    \+ evaluate(Q, Path, World).
query(random, _, Path, _, RandomAnswers) :-
    length(Path, Heard),
    Step is Heard + 1,
    nth1(Step, RandomAnswers, true).

%!  query_position(+P, +Question, +Path, +World, ?Utterance): the god at P utters Utterance.
query_position(P, Q, Path, World, Utterance) :-
    World = w(PosList, Language),
    memberchk(pos(P, God, RandomAnswers), PosList),
    (   God == random, length(Path, Heard), Step is Heard + 1, nth1(Step, RandomAnswers, silent)
    ->  Utterance = silent
    ;   (   query(God, Q, Path, World, RandomAnswers) -> Logical = true ; Logical = fail ),
        get_utterance(Logical, Language, Utterance)
    ).

% --- The question grammar ---

%!  is_question(+NumPos, +MaxComplexity, ?Question): Question has complexity =< MaxComplexity.
is_question(_, _, true).
is_question(_, _, fail).
is_question(NumPos, _, at_position_question(P, G)) :-
    is_position(NumPos, P),
    is_god(G).
is_question(NumPos, C, query_position_question(P, Q)) :-
    C > 0, C1 is C - 1,
    is_position(NumPos, P),
    is_question(NumPos, C1, Q).
is_question(NumPos, C, (Q1, Q2)) :-
    C > 0, C1 is C - 1,
    is_question(NumPos, C1, Q1),
    is_question(NumPos, C1, Q2).
is_question(NumPos, C, (Q1 ; Q2)) :-
    C > 0, C1 is C - 1,
    is_question(NumPos, C1, Q1),
    is_question(NumPos, C1, Q2).
is_question(NumPos, C, Q1 xor Q2) :-
    C > 0, C1 is C - 1,
    is_question(NumPos, C1, Q1),
    is_question(NumPos, C1, Q2).

%!  complexity(+Question, -C): nesting depth of Question's connectives and queries.
complexity(query_position_question(_, Q), C) :- !,
    complexity(Q, C0), C is C0 + 1.
complexity(Q, C) :-
    connective(Q1, Q2, Q), !,
    complexity(Q1, C1), complexity(Q2, C2), C is max(C1, C2) + 1.
complexity(_, 0).

connective(Q1, Q2, (Q1, Q2)).
connective(Q1, Q2, (Q1 ; Q2)).
connective(Q1, Q2, Q1 xor Q2).

% --- Families and worlds ---

%!  generate_permutation_families(+NumPos, +GodTypes, -Family): gods of GodTypes in any order.
generate_permutation_families(NumPos, GodTypes, Family) :-
    permutation(GodTypes, Gods),
    family_of(NumPos, Gods, Family).

%!  generate_uniform_families(+NumPos, +GodTypes, -Family): one type of GodTypes everywhere.
generate_uniform_families(NumPos, GodTypes, Family) :-
    member(God, GodTypes),
    length(Gods, NumPos),
    maplist(=(God), Gods),
    family_of(NumPos, Gods, Family).

family_of(NumPos, Gods, Family) :-
    length(Gods, NumPos),
    numlist_from_one(NumPos, Positions),
    maplist([P, G, pos(P, G, _)]>>true, Positions, Gods, Family).

numlist_from_one(0, []) :- !.
numlist_from_one(N, Ps) :- numlist(1, N, Ps).

family_gods(Family, Gods) :-
    maplist([pos(_, G, _), G]>>true, Family, Gods).

%!  puzzle_candidates(+NumPos, +GodTypes, +Generator, -Candidates): the distinct families, any language.
puzzle_candidates(NumPos, GodTypes, Generator, Candidates) :-
    findall(Gods-Family,
            ( call(Generator, NumPos, GodTypes, Family), family_gods(Family, Gods) ),
            Keyed),
    sort(1, @<, Keyed, Unique),
    findall(candidate(Family, [da_yes, da_no]), member(_-Family, Unique), Candidates).

%!  candidate_world(+Steps, +Candidate, -World): a concrete world of Candidate, random answers for Steps questions.
candidate_world(Steps, candidate(Family, Languages), w(PosList, Language)) :-
    maplist(fill_position(Steps), Family, PosList),
    member(Language, Languages).

fill_position(Steps, pos(P, God, _), pos(P, God, RandomAnswers)) :-
    (   God == random
    ->  length(RandomAnswers, Steps),
        maplist(is_random_answer, RandomAnswers)
    ;   RandomAnswers = []
    ).

% --- The universe of distinct questions ---

%!  generate_universe(+NumPos, +MaxComplexity, +Candidates): store one question per signature.
%   Signatures are taken over every world of Candidates with one random answer per god.
generate_universe(NumPos, MaxC, Candidates) :-
    maplist([candidate(F, _), F]>>true, Candidates, Families),
    (   universe_for(NumPos, MaxC, Built), Built =@= Families
    ->  true
    ;   retractall(universe_for(_, _, _)),
        retractall(distinct_q(_, _, _, _)),
        retractall(seen_signature(_, _)),
        retractall(universe_mask(_)),
        retractall(unsolvable(_, _)),
        findall(W, ( member(F, Families),
                     candidate_world(1, candidate(F, [da_yes, da_no]), W) ), Worlds),
        length(Worlds, NumWorlds),
        Mask is (1 << NumWorlds) - 1,
        assertz(universe_mask(Mask)),
        forall(is_question(NumPos, 0, Q), add_question(Worlds, Q, 0)),
        forall(between(1, MaxC, C), add_level(NumPos, Worlds, C)),
        assertz(universe_for(NumPos, MaxC, Families))
    ).

add_level(NumPos, Worlds, C) :-
    Below is C - 1,
    forall(composed_question(NumPos, Below, Q), add_question(Worlds, Q, C)).

% A new question of complexity Below+1 built from stored ones (the logical update view
% keeps the questions added meanwhile out of this enumeration).
composed_question(NumPos, Below, query_position_question(P, Q)) :-
    distinct_q(_, Q, _, Below),
    is_position(NumPos, P).
composed_question(_, Below, Q) :-
    distinct_q(I, Q1, _, C1),
    distinct_q(J, Q2, _, C2),
    I =< J,
    Below =:= max(C1, C2),
    connective(Q1, Q2, Q).

add_question(Worlds, Q, C) :-
    signature(Worlds, Q, Sig),
    (   seen_signature(Sig, _)
    ->  true
    ;   predicate_property(distinct_q(_, _, _, _), number_of_clauses(Id)),
        assertz(seen_signature(Sig, Id)),
        assertz(distinct_q(Id, Q, Sig, C))
    ).

%!  signature(+Worlds, +Question, -Sig): bit i of Sig is Question's truth in the i-th world.
signature(Worlds, Q, Sig) :-
    signature_bits(Worlds, Q, 1, 0, Sig).

signature_bits([], _, _, Sig, Sig).
signature_bits([W|Ws], Q, Bit, Sig0, Sig) :-
    (   evaluate(Q, [], W) -> Sig1 is Sig0 \/ Bit ; Sig1 = Sig0 ),
    Bit1 is Bit << 1,
    signature_bits(Ws, Q, Bit1, Sig1, Sig).

%!  universe_size(+MaxComplexity, -N): number of distinct questions of complexity =< MaxComplexity.
universe_size(MaxC, N) :-
    aggregate_all(count, (distinct_q(_, _, _, C), C =< MaxC), N).

% A question worth asking: not the mirror image of an earlier one.
askable_question(MaxC, Q) :-
    universe_mask(Mask),
    distinct_q(Id, Q, Sig, C),
    C =< MaxC,
    Mirror is Mask xor Sig,
    \+ ( seen_signature(Mirror, Earlier), Earlier < Id ).

% --- The tree search ---

%!  is_distinguishing_tree_bounded(+NumPos, +NumQs, +MaxComplexity, +GodTypes, -Tree, +Generator)
%   Tree asks at most NumQs questions of complexity =< MaxComplexity and ends every branch
%   with at most one family of those Generator makes from GodTypes.
is_distinguishing_tree_bounded(NumPos, NumQs, MaxC, GodTypes, Tree, Generator) :-
    puzzle_candidates(NumPos, GodTypes, Generator, Candidates),
    find_pruning_tree(NumQs, NumQs, MaxC, NumPos, Candidates, Candidates, Tree).

%!  find_pruning_tree(+TotalNumQs, +QuestionsLeft, +MaxComplexity, +NumPos, +AllCandidates, +Candidates, -Tree)
%   Tree separates Candidates in QuestionsLeft questions drawn from the universe of
%   AllCandidates.  TotalNumQs is the original's argument; this file needs no random
%   answers beyond the current step, so it only checks it.
find_pruning_tree(TotalNumQs, Left, MaxC, NumPos, AllCandidates, Candidates, Tree) :-
    must_be(nonneg, TotalNumQs),
    generate_universe(NumPos, MaxC, AllCandidates),
    maplist(live_candidate, Candidates, Live0),
    msort(Live0, Live),
    pruning_tree(Left, MaxC, NumPos, Live, Tree).

live_candidate(candidate(Family, Languages), Gods-Sorted) :-
    family_gods(Family, Gods),
    sort(Languages, Sorted).

% Live sets are sorted lists of Gods-Languages, one entry per family.
pruning_tree(_, _, _, Live, leaf) :-
    length(Live, N), N =< 1, !.
pruning_tree(Left, MaxC, NumPos, Live, Tree) :-
    Left > 0,
    branching(B),
    length(Live, N), N =< B ^ Left,
    \+ ( unsolvable(Known, Live), Known >= Left ),
    (   split_tree(Left, MaxC, NumPos, Live, Tree)
    *-> true
    ;   assertz(unsolvable(Left, Live)), fail
    ).

split_tree(Left, MaxC, NumPos, Live, Tree) :-
    Next is Left - 1,
    branching(B),
    Capacity is B ^ Next,
    askable_question(MaxC, Q),
    is_position(NumPos, P),
    (   B =:= 2
    ->  Words = [da, ja], Tree = tree(q(P, Q), DaTree, JaTree), Subtrees = [DaTree, JaTree]
    ;   Words = [da, ja, silent], Tree = tree(q(P, Q), DaTree, JaTree, SilentTree),
        Subtrees = [DaTree, JaTree, SilentTree]
    ),
    maplist(partition_live(Live, P, Q), Words, Branches),
    \+ member(Live, Branches),                 % every branch must make progress
    forall(member(Branch, Branches), ( length(Branch, NB), NB =< Capacity )),
    maplist(pruning_tree(Next, MaxC, NumPos), Branches, Subtrees).

%!  partition_live(+Live, +P, +Q, +Utterance, -Branch): the families (with languages) that can hear Utterance.
partition_live([], _, _, _, []).
partition_live([Gods-Languages|Rest], P, Q, Utterance, Branch) :-
    possible_languages(Gods, Languages, P, Q, Utterance, Possible),
    keep_if_any(Gods, Possible, Branch, Branch1),
    partition_live(Rest, P, Q, Utterance, Branch1).

keep_if_any(_, [], Tail, Tail) :- !.
keep_if_any(Gods, Languages, [Gods-Languages|Tail], Tail).

possible_languages(Gods, Languages, P, Q, Utterance, Possible) :-
    family_of_gods(Gods, Family),
    findall(L, ( member(L, Languages),
                 once(( candidate_world(1, candidate(Family, [L]), W),
                        query_position(P, Q, [], W, Utterance) )) ),
            Possible).

family_of_gods(Gods, Family) :-
    length(Gods, N),
    family_of(N, Gods, Family).

% --- Checking a tree by replaying it ---

%!  verify_tree(+Tree, +NumQs, +Candidates): replayed in every world, each leaf is reached by one family only.
verify_tree(Tree, NumQs, Candidates) :-
    findall(Leaf-Gods,
            ( member(Cand, Candidates),
              Cand = candidate(Family, _),
              family_gods(Family, Gods),
              candidate_world(NumQs, Cand, W),
              answer_path(Tree, W, [], Leaf) ),
            Reached),
    sort(Reached, Pairs),
    \+ ( member(L-G1, Pairs), member(L-G2, Pairs), G1 \== G2 ).

%!  answer_path(+Tree, +World, +Path, -Answers): the utterances heard going down Tree in World.
answer_path(leaf, _, Path, Answers) :-
    reverse(Path, Answers).
answer_path(tree(q(P, Q), DaTree, JaTree), World, Path, Answers) :-
    query_position(P, Q, Path, World, U),
    (   U == da -> Next = DaTree ; Next = JaTree ),
    answer_path(Next, World, [U|Path], Answers).
answer_path(tree(q(P, Q), DaTree, JaTree, SilentTree), World, Path, Answers) :-
    query_position(P, Q, Path, World, U),
    (   U == da -> Next = DaTree ; U == ja -> Next = JaTree ; Next = SilentTree ),
    answer_path(Next, World, [U|Path], Answers).

% --- Printing ---

%!  solve_and_print_riddle: solve the classic puzzle (3 gods, 3 questions, complexity 1) and print the tree.
solve_and_print_riddle :-
    GodTypes = [truly, falsely, random],
    is_distinguishing_tree_bounded(3, 3, 1, GodTypes, Tree, generate_permutation_families),
    !,
    format("A tree of 3 questions that names all three gods:~n"),
    print_tree(Tree, ""),
    format("~nAs a term:~n~q~n", [Tree]).

print_tree(leaf, Indent) :-
    format("~wthe gods are known~n", [Indent]).
print_tree(tree(q(P, Q), DaTree, JaTree), Indent) :-
    print_tree(tree(q(P, Q), DaTree, JaTree, none), Indent).
print_tree(tree(q(P, Q), DaTree, JaTree, SilentTree), Indent) :-
    question_text(Q, Text),
    format("~wAsk god ~w: ~s?~n", [Indent, P, Text]),
    atom_concat(Indent, '    ', Deeper),
    format("~w  da:~n", [Indent]), print_tree(DaTree, Deeper),
    format("~w  ja:~n", [Indent]), print_tree(JaTree, Deeper),
    (   SilentTree == none -> true
    ;   format("~w  silent:~n", [Indent]), print_tree(SilentTree, Deeper)
    ).

%!  question_text(+Question, -Text): Question in English.
question_text(true, "true").
question_text(fail, "false").
question_text(at_position_question(P, G), S) :-
    format(string(S), "is god ~w ~w", [P, G]).
question_text(query_position_question(P, Q), S) :-
    question_text(Q, T),
    format(string(S), "would god ~w answer '~s' with da", [P, T]).
question_text((Q1, Q2), S) :- binary_text(Q1, "and", Q2, S).
question_text((Q1 ; Q2), S) :- binary_text(Q1, "or", Q2, S).
question_text(Q1 xor Q2, S) :- binary_text(Q1, "xor", Q2, S).

binary_text(Q1, Op, Q2, S) :-
    question_text(Q1, T1),
    question_text(Q2, T2),
    format(string(S), "(~s ~s ~s)", [T1, Op, T2]).
