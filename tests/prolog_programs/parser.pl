% An arithmetic expression parser written without DCG notation: tokens from character
% codes, then a recursive-descent parser with the difference lists passed by hand, then
% evaluation of the tree. Precedence: + and - (left), * and / (left), unary -, parentheses.

tokens([], []).
tokens([C|Cs], Ts) :- code_type_space(C), !, tokens(Cs, Ts).
tokens([C|Cs], [num(N)|Ts]) :- digit(C), !, digits(Cs, Ds, Rest), number_codes(N, [C|Ds]), tokens(Rest, Ts).
tokens([C|Cs], [op(Op)|Ts]) :- op_code(C, Op), tokens(Cs, Ts).

code_type_space(0' ).
digit(C) :- C >= 0'0, C =< 0'9.
digits([C|Cs], [C|Ds], Rest) :- digit(C), !, digits(Cs, Ds, Rest).
digits(Cs, [], Cs).
op_code(0'+, +). op_code(0'-, -). op_code(0'*, *). op_code(0'/, /). op_code(0'(, '('). op_code(0'), ')').

% expr(Tree, Tokens0, Tokens): Tree is an expression at the start of Tokens0.
expr(T, S0, S) :- term(T0, S0, S1), expr_rest(T0, T, S1, S).
expr_rest(Acc, T, [op(Op)|S0], S) :- add_op(Op), !, term(R, S0, S1), A =.. [Op, Acc, R], expr_rest(A, T, S1, S).
expr_rest(T, T, S, S).
term(T, S0, S) :- factor(T0, S0, S1), term_rest(T0, T, S1, S).
term_rest(Acc, T, [op(Op)|S0], S) :- mul_op(Op), !, factor(R, S0, S1), A =.. [Op, Acc, R], term_rest(A, T, S1, S).
term_rest(T, T, S, S).
factor(N, [num(N)|S], S).
factor(-(T), [op(-)|S0], S) :- factor(T, S0, S).
factor(T, [op('(')|S0], S) :- expr(T, S0, [op(')')|S]).

add_op(+). add_op(-).
mul_op(*). mul_op(/).

parse(Codes, Tree) :- tokens(Codes, Ts), expr(Tree, Ts, []).
calc(Text, Tree, Value) :- atom_codes(Text, Codes), parse(Codes, Tree), Value is Tree.
