% logicpy's bridge module, loaded into SWI-Prolog by logicpy.swi (max_depth's value is
% filled in as it loads): consult requests, queries with limits, answers as canonical text.
:- module(logicpy_bridge, []).
:- use_module(library(time)).
:- use_module(library(solution_sequences)).
:- use_module(library(apply)).

:- thread_local collecting/0, collected/4.
:- multifile user:message_hook/3.
:- dynamic user:message_hook/3.

max_depth(@MAX_DEPTH@).

% While a file loads, its errors and warnings are recorded instead of printed.
user:message_hook(Term, Kind, Lines) :-
    logicpy_bridge:collecting,
    ( Kind == error ; Kind == warning ), !,
    logicpy_bridge:location(Term, File, Line),
    logicpy_bridge:lines_text(Lines, Text),
    assertz(logicpy_bridge:collected(Kind, File, Line, Text)).

location(error(_, Context), File, Line) :- nonvar(Context), Context = file(File, Line, _, _), !.
location(_, File, Line) :- source_location(File, Line), !.
location(_, '', 0).

lines_text(Lines, Text) :-
    with_output_to(string(Text), print_message_lines(current_output, '', Lines)).

message_text(Term, Text) :-
    (   catch(phrase('$messages':translate_message(Term), Lines), _, fail)
    ->  lines_text(Lines, Text)
    ;   format(string(Text), "~q", [Term])
    ).

canonical(Term, VariableNames, Text) :-
    with_output_to(string(Text),
        write_term(Term, [quoted(true), ignore_ops(true), dotlists(false),
                          brace_terms(false), variable_names(VariableNames)])).

%!  serve(+Job, +RequestText, -ReplyText) is det.
%   The one entry point of the bridge: never fails, and throws only '$aborted' (abort/0).
%   The reply is one line per term (quoted text never holds a raw newline): the reply
%   term, then the answers of a query. While it runs, Job is the engine's current job.
serve(Job, RequestText, ReplyText) :-
    nb_setval(logicpy_job, Job),
    catch(( interrupt_pending(Job), term_string(Request, RequestText), handle(Request, Reply0, Answers0) ),
          E, ( error_reply(E, Reply0), Answers0 = [] )),
    nb_setval(logicpy_job, none),
    (   nb_current(logicpy_halt_cancelled, Status)
    ->  nb_delete(logicpy_halt_cancelled), Reply = halted(Status), Answers = []
    ;   Reply = Reply0, Answers = Answers0
    ),
    canonical(Reply, [], Head),
    atomic_list_concat([Head|Answers], '\n', ReplyAtom),
    atom_string(ReplyAtom, ReplyText).

error_reply(logicpy_interrupted, interrupted) :- !.
error_reply(error(logicpy_halt(Status), _), halted(Status)) :- !.
error_reply(logicpy_refused(What, Why), refused(What, Why)) :- !.
error_reply(E, Reply) :-
    (   \+ acyclic_term(E)
    ->  Reply = refused(error, cyclic)
    ;   catch(( checked(error, E), shown_error(E, Shown), message_text(Shown, Message),
                canonical(E, [], TermText), Reply = error(TermText, Message) ),
              logicpy_refused(What, Why), Reply = refused(What, Why))
    ).

% The bridge's own frames (findall, catch) are no use in a message.
shown_error(error(Formal, context(Frame, Extra)), error(Formal, context(_, Extra))) :-
    nonvar(Frame),
    ( Frame = '$bags':_ ; Frame = system:catch/3 ), !.
shown_error(E, E).

%!  interrupt(+Job) is det.
%   Run in the engine by thread_signal/2 when Python's caller got Ctrl-C: stops Job if
%   it is running, marks it if it has not started (a late signal finds a later job: no-op).
interrupt(Job) :-
    (   nb_current(logicpy_job, Job)
    ->  throw(logicpy_interrupted)
    ;   nb_setval(logicpy_interrupt_pending, Job)  % Job has not started yet
    ).

% The signal can arrive just before its job starts: the job then stops at once.
interrupt_pending(Job) :-
    (   nb_current(logicpy_interrupt_pending, Job)
    ->  nb_delete(logicpy_interrupt_pending), throw(logicpy_interrupted)
    ;   true
    ).

% halt/0,1 stops the query, not Python: in clauses loaded from now on (goal expansion),
% and called in module user (redefined there). Any other call reaches system:halt/1,
% which the at_halt/1 hook cancels (halt then fails, and the reply says it was called).
:- multifile user:goal_expansion/2.
:- dynamic user:goal_expansion/2.
user:goal_expansion(halt, logicpy_bridge:halt_in_query(0)).
user:goal_expansion(halt(Status), logicpy_bridge:halt_in_query(Status)).
:- user:redefine_system_predicate(halt).
:- user:redefine_system_predicate(halt(_)).
user:halt :- logicpy_bridge:halt_in_query(0).
user:halt(Status) :- logicpy_bridge:halt_in_query(Status).
halt_in_query(Status) :-
    (   nb_current(logicpy_job, Job), Job \== none
    ->  (   source_location(File, Line)  % a directive of a file being loaded
        ->  Context = file(File, Line, -1, _)
        ;   true
        ),
        throw(error(logicpy_halt(Status), Context))
    ;   system:halt(Status)
    ).
:- at_halt(logicpy_bridge:cancel_halt_in_query).
cancel_halt_in_query :-
    (   nb_current(logicpy_job, Job), Job \== none
    ->  nb_setval(logicpy_halt_cancelled, unknown),
        cancel_halt('the SWI-Prolog bridge does not end the Python process')
    ;   true
    ).
:- multifile prolog:error_message//1.
prolog:error_message(logicpy_halt(Status)) -->
    [ 'halt(~w) was called: the SWI-Prolog bridge does not end the Python process'-[Status] ].

handle(Request, Reply, []) :-
    Request \= query(_, _, _, _, _, _, _), !,
    handle(Request, Reply).
handle(query(GoalText, ReadModule, Module, Shown, Limit, Timeout, Capture), Reply, Texts) :-
    term_string(Goal, GoalText, [variable_names(Bindings), module(ReadModule)]),
    shown_bindings(Shown, Bindings, Answer),
    limited(Limit, Module:Goal, Limited),
    timed(Timeout, findall(Answer, Limited, Answers), Timed),
    captured(Capture, Timed, Output, Run),
    catch(Run, E, true),
    (   var(E)
    ->  maplist(answer_text, Answers, Texts),
        Reply = answers(Output)
    ;   Texts = [],
        (   time_out(E)
        ->  Reply = timeout
        ;   error_reply(E, Reply)
        )
    ).

handle(consult(File, Module), consulted(Messages)) :-
    retractall(collected(_, _, _, _)),
    setup_call_cleanup(
        assertz(collecting),
        catch(load_files(Module:File, [if(true)]), E, record(E)),
        retractall(collecting)),
    findall(message(K, F, L, T), retract(collected(K, F, L, T)), Messages).
handle(ping, pong).
handle(unload(File), done) :-
    unload_file(File).
% An exception out of load_files/2: kind `refused` when it refused the file (nothing
% was loaded), else `error`; Ctrl-C goes on to stop the request.
record(logicpy_interrupted) :- !,
    throw(logicpy_interrupted).
record(E) :-
    location(E, File, Line),
    message_text(E, Text),
    (   E = error(permission_error(load, source, _), _) -> Kind = refused ; Kind = error ),
    assertz(collected(Kind, File, Line, Text)).

shown_bindings(all, Bindings, Bindings).
shown_bindings(public, Bindings, Shown) :-
    exclude(underscore_name, Bindings, Shown).

underscore_name(Name = _) :- sub_atom(Name, 0, _, _, '_').

limited(none, Goal, Goal) :- !.
limited(N, Goal, limit(N, Goal)).

timed(none, Goal, Goal) :- !.
timed(Seconds, Goal, call_with_time_limit(Seconds, Goal)).

captured(false, Goal, "", Goal).
captured(true, Goal, Output, with_output_to(string(Output), Goal)).

time_out(time_limit_exceeded).
time_out(time_limit_exceeded(_)).

% An answer is its bindings list and its residual goals; still-unbound goal variables
% keep their names.
answer_text(Bindings, Text) :-
    (   acyclic_term(Bindings)
    ->  true
    ;   throw(error(representation_error(cyclic_term), context(logicpy_answer/1, 'logicpy terms are acyclic')))
    ),
    copy_term(Bindings, Plain, Residual),   % constraints (dif/2, clpfd) as goals
    checked_bindings(Plain),
    maplist(checked(residual), Residual),
    include(unbound_binding, Plain, Names),
    canonical(answer(Plain, Residual), Names, Text).

unbound_binding(_ = Value) :- var(Value).

checked_bindings([]).
checked_bindings([Name = Value|Bindings]) :-
    checked(binding(Name), Value),
    checked_bindings(Bindings).

%!  checked(+What, +Term) is det.
%   Throws logicpy_refused(What, Why) unless Term can be written here and read in Python:
%   Why is too_deep(Depth, Limit) past max_depth/1 (SWI writes by C recursion), or, in
%   an answer, cannot_cross(Kind, Text) for a dict or a blob that is not an atom (a
%   stream, a clause reference, ...). An error term may hold blobs: Python keeps its text.
checked(_, Term) :-
    \+ compound(Term), \+ ( blob(Term, Type), \+ text_blob(Type) ), !.  % nothing to measure
checked(What, Term) :-
    (   What == error -> Strict = false ; Strict = true ),
    catch(depth(Term, Strict, Depth), logicpy_cannot_cross(Kind, Culprit), true),
    max_depth(Limit),
    (   nonvar(Kind)
    ->  with_output_to(string(Text), write_term(Culprit, [quoted(true), max_depth(4)])),
        throw(logicpy_refused(What, cannot_cross(Kind, Text)))
    ;   Depth > Limit
    ->  throw(logicpy_refused(What, too_deep(Depth, Limit)))
    ;   true
    ).

% depth(+Term, +Strict, -Depth): how deep compounds and lists nest in Term (a list's
% elements are one level below it, however long it is).
depth(T, Strict, D) :-
    (   compound(T)
    ->  (   Strict == true, is_dict(T) -> throw(logicpy_cannot_cross(dict, T)) ; true ),
        (   T = [_|_]
        ->  list_depth(T, Strict, 0, D0)
        ;   compound_name_arity(T, _, N), args_depth(N, T, Strict, 0, D0)
        ),
        D is D0 + 1
    ;   Strict == true, blob(T, Type), \+ text_blob(Type)
    ->  throw(logicpy_cannot_cross(Type, T))
    ;   D = 0
    ).

text_blob(text).
text_blob(ucs_text).
text_blob(reserved_symbol).

list_depth(List, Strict, D0, D) :-
    (   nonvar(List), List = [H|T]
    ->  depth(H, Strict, DH), D1 is max(D0, DH), list_depth(T, Strict, D1, D)
    ;   depth(List, Strict, DT), D is max(D0, DT)
    ).

args_depth(I, T, Strict, D0, D) :-
    (   I =:= 0
    ->  D = D0
    ;   arg(I, T, A), depth(A, Strict, DA), D1 is max(D0, DA),
        I1 is I - 1, args_depth(I1, T, Strict, D1, D)
    ).
