% List utilities written from scratch (no library predicates).
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).

rev(L, R) :- rev(L, [], R).
rev([], A, A).
rev([H|T], A, R) :- rev(T, [H|A], R).

len([], 0).
len([_|T], N) :- len(T, M), N is M + 1.

mem(X, [X|_]).
mem(X, [_|T]) :- mem(X, T).

last_of([X], X).
last_of([_|T], X) :- last_of(T, X).

sum([], 0).
sum([X|Xs], S) :- sum(Xs, S0), S is S0 + X.

max_of([X], X).
max_of([X|Xs], M) :- max_of(Xs, M0), ( X > M0 -> M = X ; M = M0 ).

select_one(X, [X|T], T).
select_one(X, [H|T], [H|R]) :- select_one(X, T, R).

perm([], []).
perm(L, [X|P]) :- select_one(X, L, R), perm(R, P).

nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).

range(N, N, [N]).
range(M, N, [M|Ns]) :- M < N, M1 is M + 1, range(M1, N, Ns).
