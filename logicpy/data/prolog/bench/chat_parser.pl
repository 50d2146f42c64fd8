% Parsing English: a small grammar of sentences, noun phrases with adjectives,
% prepositional phrases and relative clauses, and verb phrases, written as plain clauses
% over difference lists of words. Prepositional phrases may attach to a noun or to the
% verb, so a sentence can have several parses; all of them are found.
%
% run(Times, Counts-First): the sentences parsed Times times; Counts are the numbers of
% parses of each sentence and First the first parse of the first one.
% bench(A): run/2 at the benchmark's size.

bench(A) :- run(80, A).

run(Times, Counts-First) :-
    ( between(2, Times, _), parse_all(_), fail ; true ),
    parse_all(Parses),
    counts(Parses, Counts),
    Parses = [[First|_]|_].

parse_all(Parses) :- findall(Ts, ( sentence_words(Ws), findall(T, sentence(T, Ws, []), Ts) ), Parses).

counts([], []).
counts([Ts|Tss], [N|Ns]) :- length(Ts, N), counts(Tss, Ns).

sentence_words([the, old, man, sees, a, dog, in, the, park]).
sentence_words([every, woman, that, likes, a, dog, walks, near, the, river]).
sentence_words([a, man, sees, the, woman, with, a, telescope, in, the, park, near, the, river]).
sentence_words([the, dog, that, the, man, sees, sleeps]).
sentence_words([some, big, city, borders, the, ocean]).
sentence_words([the, small, dog, likes, every, old, woman, that, walks, in, the, park, with, a, man]).
sentence_words([dog, the, sees]).
sentence_words([the, man, with, the, dog, that, sleeps, near, a, city, sees, the, river]).

sentence(s(NP, VP), S0, S) :- noun_phrase(NP, S0, S1), verb_phrase(VP, S1, S).

noun_phrase(np(D, Adjs, N, Mods), S0, S) :-
    word(det, D, S0, S1),
    adjectives(Adjs, S1, S2),
    word(noun, N, S2, S3),
    noun_modifiers(Mods, S3, S).

adjectives([], S, S).
adjectives([A|As], S0, S) :- word(adj, A, S0, S1), adjectives(As, S1, S).

noun_modifiers([], S, S).
noun_modifiers([PP|Ms], S0, S) :- prep_phrase(PP, S0, S1), noun_modifiers(Ms, S1, S).
noun_modifiers([rel(VP)], S0, S) :- word(rel, _, S0, S1), verb_phrase(VP, S1, S).
noun_modifiers([rel(NP, V)], S0, S) :-
    word(rel, _, S0, S1),
    noun_phrase(NP, S1, S2),
    word(tverb, V, S2, S).

prep_phrase(pp(P, NP), S0, S) :- word(prep, P, S0, S1), noun_phrase(NP, S1, S).

verb_phrase(vp(V, Obj, PPs), S0, S) :-
    verb(V, Obj, S0, S1),
    verb_modifiers(PPs, S1, S).

verb(V, none, S0, S) :- word(iverb, V, S0, S).
verb(V, NP, S0, S) :- word(tverb, V, S0, S1), noun_phrase(NP, S1, S).

verb_modifiers([], S, S).
verb_modifiers([PP|PPs], S0, S) :- prep_phrase(PP, S0, S1), verb_modifiers(PPs, S1, S).

word(Category, W, [W|S], S) :- lexicon(Category, W).

lexicon(det, the).
lexicon(det, a).
lexicon(det, every).
lexicon(det, some).
lexicon(noun, man).
lexicon(noun, woman).
lexicon(noun, dog).
lexicon(noun, park).
lexicon(noun, telescope).
lexicon(noun, river).
lexicon(noun, city).
lexicon(noun, ocean).
lexicon(adj, old).
lexicon(adj, big).
lexicon(adj, small).
lexicon(iverb, walks).
lexicon(iverb, sleeps).
lexicon(tverb, sees).
lexicon(tverb, likes).
lexicon(tverb, borders).
lexicon(prep, in).
lexicon(prep, with).
lexicon(prep, near).
lexicon(rel, that).
lexicon(rel, who).
