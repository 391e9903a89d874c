-- The `odelab` shortcode for Quarto: `{{< odelab scenario="rk4-region" readonly="true" >}}`
-- puts an odelab embed in the page. In HTML it is the README's two lines: odelab's
-- embed.js (once per document) and an <ode-playground> element with the shortcode's
-- keys as attributes (scenario, view, readonly, controls, link, height, loading). In
-- any other format (PDF, Word) it is a link to the same scenario in the playground.
--
-- Where odelab lives: the key `base`, else the document's metadata `odelab: base: …`
-- (e.g. in _quarto.yml), else https://odelab.example/ must be replaced: both name the
-- folder that holds odelab's index.html and embed.js.

local ATTRIBUTES = { 'scenario', 'view', 'controls', 'link', 'height', 'loading' }
local script_emitted = false

local function text(value)
  if value == nil then return nil end
  local s = pandoc.utils.stringify(value)
  if s == '' then return nil end
  return s
end

local function escape(s)
  return (s:gsub('&', '&amp;'):gsub('"', '&quot;'):gsub('<', '&lt;'):gsub('>', '&gt;'))
end

local function url_encode(s)
  return (s:gsub('[^%w%-%._~]', function(c) return string.format('%%%02X', string.byte(c)) end))
end

local function is_html()
  if quarto ~= nil and quarto.doc ~= nil and quarto.doc.is_format ~= nil then
    return quarto.doc.is_format('html:js')
  end
  return FORMAT:match('html') ~= nil
end

local function base_of(kwargs, meta)
  local base = text(kwargs['base'])
  if base == nil and meta ~= nil and meta['odelab'] ~= nil and type(meta['odelab']) == 'table' then
    base = text(meta['odelab']['base'])
  end
  base = base or 'https://odelab.example/'
  if base:sub(-1) ~= '/' then base = base .. '/' end
  return base
end

local function odelab(_args, kwargs, meta)
  local base = base_of(kwargs, meta)
  local readonly = text(kwargs['readonly'])
  local is_readonly = readonly ~= nil and readonly ~= 'false'
  if not is_html() then
    -- The embed URL form (www/embed-url.ts) as a link.
    local query = { 'embed=1' }
    local scenario = text(kwargs['scenario'])
    if scenario then table.insert(query, 'scenario=' .. url_encode(scenario)) end
    local url = base .. 'index.html?' .. table.concat(query, '&')
    return pandoc.Link(pandoc.Inlines('odelab: ' .. (scenario or 'playground')), url)
  end
  local parts = {}
  if not script_emitted then
    script_emitted = true
    table.insert(parts, '<script src="' .. escape(base .. 'embed.js') .. '"></script>')
  end
  local attrs = {}
  for _, name in ipairs(ATTRIBUTES) do
    local value = text(kwargs[name])
    if value then table.insert(attrs, ' ' .. name .. '="' .. escape(value) .. '"') end
  end
  if is_readonly then table.insert(attrs, ' readonly') end
  table.insert(parts, '<ode-playground' .. table.concat(attrs) .. '></ode-playground>')
  return pandoc.RawBlock('html', table.concat(parts, '\n'))
end

return { ['odelab'] = odelab }
