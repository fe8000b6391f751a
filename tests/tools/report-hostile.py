#!/usr/bin/python3
"""report-hostile.py - hostile results for `medan-referee report --html`.

  report-hostile.py make REAL.jsonl OUT.jsonl   records with hostile text
  report-hostile.py title                       the hostile --title
  report-hostile.py check PAGE.html             the page in headless Chromium

`make` takes the records of a real two-seat match and puts script, markup,
quotes, a control character and a cut UTF-8 character into every text the
report shows: the engine names, the event, the variant's parameters, the
opening and the reason.  Each payload, if it ran, would change the
document's title or add an element.  `check` opens the page (selenium,
/usr/bin/chromedriver) and fails (exit 1) unless the title is the one
given, no script, img or b element exists, no element has an on* handler,
every payload is visible as text, and the file is valid UTF-8.
"""
import json
import sys

NAME1 = '<script>document.title="X"</script>'
# 40 bytes of markup and 12 two-byte characters: the referee keeps 63 bytes
# of a name, so the last character is cut in half.
NAME2 = '"><img src=x onerror=document.title=\'Y\'>' + '\u00e9' * 12
NAME2_SHOWN = NAME2[:-1] + '\ufffd'
EVENT = '</title><script>document.title="Z"</script>\u001b[31m'
EVENT_SHOWN = '</title><script>document.title="Z"</script>\ufffd[31m'
PARAMS = 'size=8 <script>document.title=\'P\'</script>'
OPENING = '<img src=x onerror=document.title=\'O\'>'
REASONS = ['<svg onload=document.title=\'R\'>', ']]></title><b>bold</b>',
           'javascript:document.title=\'J\'', '\' " & <!-- x']
TITLE = 'Report <script>document.title=\'T\'</script> & "q" \'s'


def make(src, dst):
    out, names = [], {}
    with open(src, encoding='utf-8') as f:
        for k, line in enumerate(f):
            if not line.strip():
                continue
            r = json.loads(line)
            if not names:
                names = {r['seats'][0]: NAME1, r['seats'][1]: NAME2}
            r['seats'] = [names[s] for s in r['seats']]
            r['event'] = EVENT
            r['variant']['params'] = PARAMS
            r['opening'] = OPENING
            r['reason'] = REASONS[k % len(REASONS)]
            out.append(json.dumps(r))
    with open(dst, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


def check(page):
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    import os
    fails = []
    raw = open(page, 'rb').read()
    try:
        raw.decode('utf-8')
    except UnicodeDecodeError as e:
        fails.append('the page is not valid UTF-8: %s' % e)
    o = Options()
    for a in ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage']:
        o.add_argument(a)
    d = webdriver.Chrome(service=Service('/usr/bin/chromedriver'), options=o)
    try:
        d.get('file://' + os.path.abspath(page))
        if d.title != TITLE:
            fails.append('the title is %r, not %r' % (d.title, TITLE))
        for sel in ['script', 'img', 'b', 'iframe', 'object', 'embed', 'a', 'style:not(:first-of-type)']:
            k = d.execute_script('return document.querySelectorAll(arguments[0]).length', sel)
            if k:
                fails.append('%d injected %s element(s)' % (k, sel))
        k = d.execute_script('''let k = 0;
            for (const e of document.querySelectorAll('*'))
                for (const a of e.attributes)
                    if (a.name.startsWith('on') || /javascript:/i.test(a.value)) k++;
            return k;''')
        if k:
            fails.append('%d event-handler or javascript: attribute(s)' % k)
        text = d.execute_script('return document.documentElement.textContent')
        for what, s in [('engine 1', NAME1), ('engine 2', NAME2_SHOWN), ('event', EVENT_SHOWN),
                        ('parameters', PARAMS), ('opening', OPENING), ('title', TITLE)] + \
                [('reason', r) for r in REASONS]:
            if s not in text:
                fails.append('the %s %r is not shown as text' % (what, s))
        for h in ['Elo of ' + NAME1, 'Score of ' + NAME1 + ' by opening']:
            if h not in text:
                fails.append('no heading %r' % h)
    finally:
        d.quit()
    for f in fails:
        print('report-hostile: ' + f, file=sys.stderr)
    if not fails:
        print('report-hostile: title unchanged, no element injected, every payload shown as text')
    return 1 if fails else 0


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'make':
        make(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 2 and sys.argv[1] == 'title':
        print(TITLE)
    elif len(sys.argv) == 3 and sys.argv[1] == 'check':
        sys.exit(check(sys.argv[2]))
    else:
        sys.exit(__doc__)
