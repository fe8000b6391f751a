#!/usr/bin/env python3
"""pgn-check.py - a strict check of PGN records against the PGN standard's
tag grammar (for tests/run-referee.sh).

usage: pgn-check.py [--comments] [--tag NAME]... FILE...

Every game must have:
  - tag pairs in export format (PGN standard 8.1), one per line:
    '[' symbol ' ' string ']' with nothing else on the line; the symbol
    begins with an upper-case letter and continues with letters, digits and
    _+#=:- ; the string is '"' printing characters '"', where '"' and '\\'
    appear only escaped as \\" and \\\\ and a backslash escapes nothing
    else; no tab, newline or other control character;
  - the seven-tag roster first, in order: Event Site Date Round White Black
    Result; no tag twice; Date YYYY.MM.DD (any part may be ?s), Round
    digits (or ? or -), Result 1-0, 0-1, 1/2-1/2 or *;
  - a blank line, movetext in lines of at most 79 characters (export
    format), whose comments are closed {...} without a '{' inside, and the
    game termination marker equal to the Result tag;
  - a blank line after the movetext.
--comments: every move's comment is cutechess-cli's
  ("+0.31/12 0.25s", "-M3/9 1.2s", "0.043s"); the last comment (the
  ending's reason) is not a move's.
--tag NAME: print the unescaped value of tag NAME of every game, one per
  line (to check escaping round trips).
Prints "N games ok" and exits 0, or prints each problem and exits 1.
"""
import re
import sys

SYMBOL = re.compile(r'[A-Z][A-Za-z0-9_+#=:-]*')
STR = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result']
RESULTS = {'1-0', '0-1', '1/2-1/2', '*'}
DATE = re.compile(r'([0-9]{4}|\?{4})\.([0-9]{2}|\?{2})\.([0-9]{2}|\?{2})')
ROUND = re.compile(r'[0-9]+(\.[0-9]+)*|\?|-')
COMMENT = re.compile(r'(([+-]M[1-9][0-9]*|[+-]?[0-9]+\.[0-9]{2})/[1-9][0-9]* )?'
                     r'(0|[0-9]+(\.[0-9]{1,3})?)s')


def parse_tag(line):
    """(name, value) of an export-format tag pair line, or an error text."""
    if not line.startswith('[') or not line.endswith(']'):
        return 'not a tag pair line'
    m = SYMBOL.match(line, 1)
    if not m:
        return 'no tag name (a symbol starting with an upper-case letter)'
    name, i = m.group(0), m.end()
    if line[i:i + 2] != ' "':
        return 'tag %s: expected one space and a quote after the name' % name
    i += 2
    value = []
    while True:
        if i >= len(line) - 1:
            return 'tag %s: string not closed' % name
        c = line[i]
        if c == '\\':
            nxt = line[i + 1] if i + 1 < len(line) else ''
            if nxt not in ('"', '\\'):
                return 'tag %s: backslash escapes %r (only \\" and \\\\)' % (name, nxt)
            value.append(nxt)
            i += 2
            continue
        if c == '"':
            break
        if ord(c) < 0x20 or ord(c) == 0x7f:
            return 'tag %s: control character %r in the string' % (name, c)
        value.append(c)
        i += 1
    if line[i + 1:] != ']':
        return 'tag %s: text after the string: %r' % (name, line[i + 1:])
    return name, ''.join(value)


def check_movetext(text, result, comments, where, problems):
    """Comments closed, the termination marker last and equal to result."""
    found = []
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == '{':
            j = text.find('}', i + 1)
            if j < 0:
                problems.append('%s: comment not closed' % where)
                return
            body = text[i + 1:j]
            if '{' in body:
                problems.append('%s: "{" inside a comment' % where)
            found.append(body)
            out.append(' ')
            i = j + 1
        elif c == '}':
            problems.append('%s: "}" outside a comment' % where)
            return
        else:
            out.append(c)
            i += 1
    tokens = ''.join(out).split()
    if not tokens or tokens[-1] != result:
        problems.append('%s: movetext ends with %r, the Result tag is %r' %
                        (where, tokens[-1] if tokens else '', result))
    if comments:
        for body in found[:-1]:
            if not COMMENT.fullmatch(body):
                problems.append('%s: comment {%s} is not cutechess\'s' % (where, body))


def check_file(path, comments, show, problems):
    with open(path, encoding='utf-8', errors='strict') as f:
        lines = f.read().split('\n')
    games, i = 0, 0
    while i < len(lines):
        if lines[i] == '':
            i += 1
            continue
        games += 1
        where = '%s: game %d (line %d)' % (path, games, i + 1)
        tags = []
        while i < len(lines) and lines[i] != '':
            r = parse_tag(lines[i])
            if isinstance(r, str):
                problems.append('%s: line %d: %s: %r' % (path, i + 1, r, lines[i]))
            else:
                tags.append(r)
            i += 1
        names = [n for n, _ in tags]
        if names[:7] != STR:
            problems.append('%s: the seven-tag roster is not first and in order: %s' %
                            (where, ' '.join(names[:7])))
        if len(set(names)) != len(names):
            problems.append('%s: a tag appears twice' % where)
        t = dict(tags)
        if not DATE.fullmatch(t.get('Date', '')):
            problems.append('%s: Date %r is not YYYY.MM.DD' % (where, t.get('Date')))
        if not ROUND.fullmatch(t.get('Round', '')):
            problems.append('%s: Round %r' % (where, t.get('Round')))
        if t.get('Result') not in RESULTS:
            problems.append('%s: Result %r' % (where, t.get('Result')))
        for name in show:
            print(t.get(name, ''))
        i += 1  # the blank line after the tags
        body = []
        while i < len(lines) and lines[i] != '':
            if lines[i].startswith('['):
                problems.append('%s: a tag line in the movetext' % where)
            if len(lines[i]) > 79 and ' ' in lines[i]:
                problems.append('%s: line %d: movetext longer than 79 characters' %
                                (where, i + 1))
            body.append(lines[i])
            i += 1
        if not body:
            problems.append('%s: no movetext' % where)
            continue
        check_movetext(' '.join(body), t.get('Result', ''), comments, where, problems)
    return games


def main(argv):
    comments, show, files = False, [], []
    k = 0
    while k < len(argv):
        if argv[k] == '--comments':
            comments = True
        elif argv[k] == '--tag' and k + 1 < len(argv):
            k += 1
            show.append(argv[k])
        else:
            files.append(argv[k])
        k += 1
    if not files:
        print(__doc__, file=sys.stderr)
        return 2
    problems, games = [], 0
    for path in files:
        try:
            games += check_file(path, comments, show, problems)
        except (OSError, UnicodeDecodeError) as e:
            problems.append('%s: %s' % (path, e))
    for p in problems:
        print('pgn-check: ' + p, file=sys.stderr)
    if problems:
        return 1
    if not games:
        print('pgn-check: no games', file=sys.stderr)
        return 1
    if not show:
        print('%d games ok' % games)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
