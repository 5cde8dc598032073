" Headless Vim + ALE driver for tests/editors/test_editors.py (Vim 9, ALE 3.x).
"
"   GG_OUT=out.json [GG_WATCHDOG_MS=90000] timeout 120 \
"     vim -N -u recipe.vim -i NONE -n -es -S ale_driver.vim FILE.py
"
" The recipe (the Vim block of docs/editors.md, unchanged) loads ALE and defines the
" gradguard linter. This script then drives the editor: lints FILE.py, waits for
" GradGuard's first diagnostic, hovers on it with :ALEHover (shown in ALE's preview
" window), applies the preferred quick fix with ALE's code action machinery, waits for
" the diagnostic to clear, undoes the fix and waits for it to come back, stops the
" server. What it saw goes to GG_OUT as JSON; the test asserts on it. A timer is the
" watchdog: it writes what was gathered and quits.
let s:t0 = reltime()
let s:result = {'steps': [], 'ms': {}}
let s:done = 0

function! s:Ms() abort
  return float2nr(reltimefloat(reltime(s:t0)) * 1000)
endfunction

function! s:Finish(status) abort
  if s:done
    return
  endif
  let s:done = 1
  let s:result.ms.total = s:Ms()
  call writefile([json_encode(s:result)], $GG_OUT)
  execute a:status == 0 ? 'qa!' : 'cquit ' . a:status
endfunction

function! s:Step(name) abort
  call add(s:result.steps, a:name)
  let s:result.ms[a:name] = s:Ms()
endfunction

function! s:Fail(message) abort
  let s:result.error = a:message
  call s:Finish(1)
endfunction

" Poll a:expr (channels and timers run during :sleep) for at most a:limit ms.
function! s:WaitFor(what, limit, expr) abort
  let l:start = reltime()
  while !eval(a:expr)
    if reltimefloat(reltime(l:start)) * 1000 > a:limit
      throw printf('timed out after %d ms waiting for %s', a:limit, a:what)
    endif
    sleep 20m
  endwhile
endfunction

function! GradGuardDiagnostics() abort
  let l:out = []
  for l:item in get(get(g:ale_buffer_info, bufnr(''), {}), 'loclist', [])
    if get(l:item, 'linter_name', '') is# 'gradguard'
      call add(l:out, {'code': get(l:item, 'code', v:null), 'line': l:item.lnum, 'col': l:item.col,
      \ 'end_line': get(l:item, 'end_lnum', v:null), 'end_col': get(l:item, 'end_col', v:null),
      \ 'message': l:item.text, 'type': l:item.type})
    endif
  endfor
  return l:out
endfunction

function! s:BufferText() abort
  return join(getline(1, '$'), "\n") . "\n"
endfunction

function! s:OnActions(data, items) abort
  let s:result.actions = []
  let l:chosen = -1
  for l:item in a:items
    let l:action = l:item[1]
    call add(s:result.actions, {'title': l:action.title, 'kind': get(l:action, 'kind', v:null),
    \ 'preferred': get(l:action, 'isPreferred', v:false) is v:true ? v:true : v:false})
    if l:chosen < 0 && get(l:action, 'isPreferred', v:false) is v:true
      let l:chosen = len(s:result.actions) - 1
    endif
  endfor
  if l:chosen < 0
    call s:Fail('no code action is marked isPreferred')
    return
  endif
  let s:result.applied = s:result.actions[l:chosen].title
  call ale#codefix#ApplyLSPCodeAction(a:data, a:items[l:chosen][1])
endfunction

function! s:Run() abort
  let s:result.editor = printf('vim %d.%d.%d, ale %s', v:version / 100, v:version % 100,
  \ v:versionlong % 10000, exists('g:loaded_ale') ? 'loaded' : 'missing')
  call s:Step('started')
  if !exists('g:loaded_ale')
    throw 'ALE is not loaded (the recipe runs packadd! ale)'
  endif

  " What ALE does on BufEnter/TextChanged through its timers: lint now.
  ALELint
  call s:WaitFor('a GradGuard diagnostic', 60000, '!empty(GradGuardDiagnostics())')
  let s:result.diagnostics = GradGuardDiagnostics()
  call s:Step('diagnostic')
  let l:first = s:result.diagnostics[0]

  " hover: :ALEHover, shown in the preview window
  let g:ale_hover_to_preview = 1
  call cursor(l:first.line, l:first.col)
  ALEHover
  call s:WaitFor('the hover preview window', 30000, "bufnr('ALEPreviewWindow') > 0")
  let s:result.hover = join(getbufline(bufnr('ALEPreviewWindow'), 1, '$'), "\n")
  pclose
  call s:Step('hover')

  " the preferred quick fix, through ALE's code action request and its edit machinery
  call cursor(l:first.line, l:first.col)
  let l:original = s:BufferText()
  let l:tick = b:changedtick
  call ale#codefix#Execute(0, function('s:OnActions'))
  call s:WaitFor('the fix to change the buffer', 30000, 'b:changedtick != ' . l:tick)
  let s:result.text = s:BufferText()
  call s:Step('fixed')

  ALELint
  call s:WaitFor('the diagnostic to clear after the fix', 60000, 'empty(GradGuardDiagnostics())')
  call s:Step('cleared')

  silent undo
  let s:result.undone = s:BufferText() ==# l:original ? v:true : v:false
  ALELint
  call s:WaitFor('the diagnostic to return after undo', 60000, '!empty(GradGuardDiagnostics())')
  let s:result.diagnostics_after_undo = GradGuardDiagnostics()
  call s:Step('returned')

  call ale#lsp#StopAll()
  call s:Step('stopped')
  call s:Finish(0)
endfunction

call timer_start(str2nr(empty($GG_WATCHDOG_MS) ? '90000' : $GG_WATCHDOG_MS),
\ {-> s:Fail('watchdog: no result in time; last step ' . get(s:result.steps, -1, 'none'))})
try
  call s:Run()
catch
  call s:Fail(v:exception . ' at ' . v:throwpoint)
endtry
