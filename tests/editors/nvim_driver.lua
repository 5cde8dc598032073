-- Headless Neovim driver for tests/editors/test_editors.py (Neovim 0.7 and later).
--
--   GG_RECIPE=recipe.lua GG_OUT=out.json [GG_LOCALE=zh-CN] [GG_WATCHDOG_MS=90000] \
--     timeout 120 nvim --headless -i NONE -n -u nvim_driver.lua FILE.py
--
-- Loads the recipe (the Lua block of docs/editors.md, unchanged), lets it start GradGuard
-- for FILE.py, then drives the editor: waits for GradGuard's first diagnostic, hovers on
-- it (vim.lsp.buf.hover, text read from the floating window), applies the preferred
-- quick fix through vim.lsp.buf.code_action (vim.ui.select answered with the action
-- marked isPreferred), waits for the diagnostic to clear, undoes the fix and waits for it
-- to come back, stops the client and waits for the server to exit. Everything it saw goes
-- to GG_OUT as JSON; the test asserts on it. A Lua error in a callback hangs headless
-- Neovim, so every step runs under xpcall and a watchdog writes what was gathered and
-- quits.
local uv = vim.loop
local t0 = uv.hrtime()
local result = { steps = {}, ms = {} }
local done = false

local function now_ms()
  return math.floor((uv.hrtime() - t0) / 1e6)
end

local function finish(status)
  if done then
    return
  end
  done = true
  result.ms.total = now_ms()
  local f = assert(io.open(assert(os.getenv("GG_OUT"), "GG_OUT is not set"), "w"))
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd(status == 0 and "qa!" or ("cquit " .. status))
end

local function step(name)
  table.insert(result.steps, name)
  result.ms[name] = now_ms()
end

local function fail(message)
  result.error = message
  finish(1)
end

-- poll ``cond`` (the event loop keeps running) for at most ``limit_ms``; error on timeout
local function wait_for(what, limit_ms, cond)
  if not vim.wait(limit_ms, cond, 20) then
    error("timed out after " .. limit_ms .. " ms waiting for " .. what, 0)
  end
end

local watchdog_ms = tonumber(os.getenv("GG_WATCHDOG_MS") or "90000")
vim.defer_fn(function()
  fail("watchdog: no result after " .. watchdog_ms .. " ms; last step " .. tostring(result.steps[#result.steps]))
end, watchdog_ms)

local v = vim.version()
result.editor = string.format("nvim %d.%d.%d", v.major, v.minor, v.patch)

-- Every client the recipe starts (vim.lsp.start_client, which vim.lsp.start calls up to
-- 0.10): record how the server process exits, and with GG_LOCALE give the locale the way a
-- user would, as an initialization option.
local locale = os.getenv("GG_LOCALE")
local start_client = vim.lsp.start_client
vim.lsp.start_client = function(config, ...)
  if locale and locale ~= "" then
    config.init_options = vim.tbl_extend("force", config.init_options or {}, { locale = locale })
  end
  local on_exit = config.on_exit
  config.on_exit = function(code, signal, client_id)
    result.server_exit = { code = code, signal = signal }
    if on_exit then
      return on_exit(code, signal, client_id)
    end
  end
  return start_client(config, ...)
end

local function clients(buf)
  if vim.lsp.get_clients then -- 0.10+
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf))
end

local function gradguard_diagnostics(buf)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.source == "gradguard" then
      table.insert(out, {
        code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code),
        line = d.lnum + 1,
        col = d.col,
        end_line = d.end_lnum + 1,
        end_col = d.end_col,
        message = d.message,
        severity = d.severity,
      })
    end
  end
  table.sort(out, function(a, b) return a.line < b.line end)
  return out
end

local function floating_windows()
  local wins = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= "" then
      table.insert(wins, win)
    end
  end
  return wins
end

local function buffer_text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n") .. "\n"
end

-- ``fn`` with its errors written to the result (an error in a callback hangs headless Neovim)
local function guarded(fn)
  return function(...)
    local ok, err = xpcall(fn, debug.traceback, ...)
    if not ok then
      fail(tostring(err))
    end
  end
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  step("started")

  wait_for("the recipe to attach a client", 30000, function() return #clients(buf) > 0 end)
  local client = clients(buf)[1]
  result.client = client.name
  step("attached")

  wait_for("a GradGuard diagnostic", 60000, function() return #gradguard_diagnostics(buf) > 0 end)
  result.diagnostics = gradguard_diagnostics(buf)
  step("diagnostic")
  local first = result.diagnostics[1]

  -- hover on the diagnostic, through the editor's hover command
  vim.api.nvim_win_set_cursor(0, { first.line, first.col })
  vim.lsp.buf.hover()
  wait_for("the hover window", 30000, function() return #floating_windows() > 0 end)
  local win = floating_windows()[1]
  result.hover = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), "\n")
  vim.api.nvim_win_close(win, true)
  step("hover")

  -- the preferred quick fix, through the editor's code action command
  vim.api.nvim_win_set_cursor(0, { first.line, first.col })
  local original = buffer_text(buf)
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  vim.ui.select = guarded(function(items, _, on_choice)
    result.actions = {}
    local chosen
    for i, item in ipairs(items) do
      local action = item[2] or item.action -- 0.7: {client_id, action}; 0.8+: {ctx=..., action=...}
      table.insert(result.actions, { title = action.title, kind = action.kind, preferred = action.isPreferred == true })
      if action.isPreferred and not chosen then
        chosen = i
      end
    end
    if not chosen then
      return fail("no code action is marked isPreferred")
    end
    result.applied = result.actions[chosen].title
    on_choice(items[chosen], chosen)
  end)
  vim.lsp.buf.code_action()
  wait_for("the fix to change the buffer", 30000, function()
    return vim.api.nvim_buf_get_changedtick(buf) ~= tick
  end)
  result.text = buffer_text(buf)
  step("fixed")

  wait_for("the diagnostic to clear after the fix", 60000, function() return #gradguard_diagnostics(buf) == 0 end)
  step("cleared")

  vim.cmd("silent undo")
  result.undone = buffer_text(buf) == original
  wait_for("the diagnostic to return after undo", 60000, function() return #gradguard_diagnostics(buf) > 0 end)
  result.diagnostics_after_undo = gradguard_diagnostics(buf)
  step("returned")

  vim.lsp.stop_client(client.id)
  wait_for("the server to exit", 30000, function() return result.server_exit ~= nil end)
  step("stopped")
  finish(0)
end

local recipe = assert(os.getenv("GG_RECIPE"), "GG_RECIPE is not set")
local ok, err = pcall(dofile, recipe)
if not ok then
  vim.schedule(function() fail("recipe failed to load: " .. tostring(err)) end)
else
  vim.api.nvim_create_autocmd("VimEnter", { callback = function() vim.schedule(guarded(run)) end })
end
