-- Quarto's shortcode call, for pandoc alone (Quarto itself cannot be installed from a
-- package registry here): a paragraph that is exactly `{{< name key="value" … >}}` is
-- replaced by what the extension's shortcode function returns for those keys, the way
-- Quarto calls it: handler(args, kwargs, meta), kwargs' values as pandoc Inlines.
-- Used by tests/e2e/platforms.test.mjs with _extensions/odelab/odelab.lua.
local handlers = dofile(os.getenv('ODELAB_SHORTCODE'))
local meta = nil

local function expand(block)
  local source = pandoc.utils.stringify(block)
  local name, rest = source:match('^{{<%s*([%w_-]+)(.-)>}}$')
  if name == nil or handlers[name] == nil then return nil end
  local kwargs, args = {}, {}
  for key, value in rest:gmatch('([%w_-]+)="([^"]*)"') do kwargs[key] = pandoc.Inlines(value) end
  local result = handlers[name](args, kwargs, meta)
  if result.t == 'Link' then return pandoc.Para({ result }) end
  return result
end

return {
  { Meta = function(m) meta = m end },
  { Para = expand, Plain = expand },
}
