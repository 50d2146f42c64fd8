% Cheryl's Birthday as public announcements (Norvig's classic, Eve and complex stories).
% Written for logicpy; the reference side of tests/puzzles/epistemic/test_cheryl_pl.py
% and of bench/bench_cheryl.py.
%
% A model is the list of dates still possible. Each statement keeps the dates where it
% holds, judged against the history of models (newest first; the last is the start).
% An agent knows the birthday when one date of the model looks like the true one to it.
%
%   ?- cheryl_dates(Ds), birthday(classic, Ds, S).      S = [date(july,16)]
%   ?- cheryl_dates(Ds), tell(classic, Ds, Steps).      the models after each statement
%   ?- counter(classic, 10000, 1, Counts).              solution counts over random samples

cheryl_dates([date(may,15), date(may,16), date(may,19), date(june,17), date(june,18),
              date(july,14), date(july,16), date(august,14), date(august,15), date(august,17)]).

% What each agent is told: Albert the month, Bernard the day, Eve the first letter of
% the month and the first digit of the day; `nobody` is told nothing.
sees(albert, date(M, _), M).
sees(bernard, date(_, D), D).
sees(eve, date(M, D), F-G) :- sub_atom(M, 0, 1, _, F), number_codes(D, [G|_]).
sees(nobody, _, nothing).

looks_like(Agent, V, X) :- sees(Agent, X, V).

cell(Agent, Model, W, Cell) :- sees(Agent, W, V), include(looks_like(Agent, V), Model, Cell).

knows(Agent, Model, W) :- cell(Agent, Model, W, [_]).

% holds(Statement, History, W): the statement is true in world W, History = [Now|Earlier].
holds(albert1, [M|_], W) :-        % I don't know, but I know that Bernard does not know too.
    \+ knows(albert, M, W),
    cell(albert, M, W, C),
    forall(member(V, C), \+ knows(bernard, M, V)).
holds(bernard1, H, W) :-           % At first I don't know, but I know now.
    H = [M|_], last(H, M0),
    \+ knows(bernard, M0, W),
    knows(bernard, M, W).
holds(albert2, [M|_], W) :-        % Then I also know.
    knows(albert, M, W).
holds(albert2c, [M|_], W) :-       % I still don't know.
    \+ knows(albert, M, W).
holds(eve1, H, W) :-               % When I peeked I didn't know; now I do; without peeking I wouldn't.
    H = [M|_], last(H, M0),
    \+ knows(eve, M0, W),
    knows(eve, M, W),
    \+ knows(nobody, M, W).        % the earlier statements do not mention Eve: same model
holds(albert3c, [M|_], W) :-       % OK, now I know.
    knows(albert, M, W).

story(classic, [albert1, bernard1, albert2]).
story(eve,     [albert1, bernard1, albert2, eve1]).
story(complex, [albert1, bernard1, albert2c, eve1, albert3c]).

% tell(+Story, +Dates, -Steps): the model after each statement.
tell(Story, Dates, Steps) :-
    story(Story, Statements),
    tell_(Statements, [Dates], Steps).

tell_([], _, []).
tell_([S|Ss], H, [M1|Ms]) :-
    H = [M|_],
    include(holds(S, H), M, M1),
    tell_(Ss, [M1|H], Ms).

birthday(Story, Dates, Solutions) :-
    tell(Story, Dates, Steps),
    last(Steps, Solutions).

% The seed's pool: March-July, days 15-19 and 25-29.
pool(Pool) :-
    findall(date(M, D), (member(M, [march, april, may, june, july]),
                         member(D, [15,16,17,18,19,25,26,27,28,29])), Pool).

sample(N, Dates) :-
    pool(Pool), random_permutation(Pool, P), length(Dates, N), append(Dates, _, P).

% counter(+Story, +Samples, +Seed, -Counts): Count-Times pairs of solution counts.
counter(Story, Samples, Seed, Counts) :-
    set_random(seed(Seed)),
    findall(L, (between(1, Samples, _), sample(10, Ds), birthday(Story, Ds, S), length(S, L)), Ls),
    msort(Ls, Sorted),
    clumped(Sorted, Counts).
