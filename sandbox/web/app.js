// The local sandbox's browser client: a minimal Discord look-alike driven by /_sandbox/ (actions, observers)
// and the /_sandbox/events WebSocket feed. No framework, no build step.
"use strict";

const S = {
  state: null,          // GET /_sandbox/state
  me: null,             // id of the user we act as
  channel: null,        // id of the channel or thread shown ("dm" for the DM view)
  messages: new Map(),  // id -> client message
  nodes: new Map(),     // id -> {sig, node}: rendered messages, reused while unchanged (images stay loaded)
  commands: [],         // flattened {path, description, options, manager}
  feed: null,
  online: true,         // the event feed is connected (false while the sandbox is stopped or restarting)
  unread: new Map(),    // channel id ("dm" for the DMs) -> "ping" | "new"
};

const saved = (key) => { try { return localStorage.getItem(`sandbox.${key}`); } catch { return null; } };
const save = (key, value) => { try { localStorage.setItem(`sandbox.${key}`, value); } catch { /* private mode */ } };

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
};

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const resp = await fetch(`/_sandbox/${path}`, init);
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw Object.assign(new Error(data.detail || data.error || resp.statusText), { data });
  return data;
}

function toast(text, kind = "error") {
  const node = el("div", { class: `toast ${kind}` }, text);
  $("#toasts").append(node);
  setTimeout(() => node.remove(), 5000);
}

const userName = (id) => (S.state.users.find((u) => u.id === id) || { name: `unknown ${id}` }).name;
const meUser = () => S.state.users.find((u) => u.id === S.me);

function allChannels() {
  const out = [];
  for (const g of S.state.guilds) for (const c of g.channels) { out.push(c); out.push(...c.threads); }
  return out;
}

// ---------------------------------------------------------------------------------------------------- sidebar

function renderSidebar() {
  const humans = S.state.users.filter((u) => !u.bot);
  const sw = $("#user-switch");
  const people = JSON.stringify([S.me, humans]);
  if (sw.dataset.people !== people) {  // rebuilt only when someone changed (an open list stays open)
    sw.dataset.people = people;
    sw.replaceChildren(...humans.map((u) => el("option", { value: u.id, selected: u.id === S.me },
      `${u.name}${u.manager ? " ★" : ""}${u.dms_open ? "" : " (DMs closed)"} · ${u.locale}`)));
  }
  const guild = S.state.guilds[0];
  $("#guild-name").textContent = guild ? guild.name : "No server";
  const nav = $("#channels");
  nav.replaceChildren();
  const link = (id, cls, label, title) => {
    const unread = S.unread.get(id);
    return el("a", { class: [cls, id === S.channel ? "active" : "", unread ? `unread ${unread}` : ""].join(" "),
      "data-channel": id, title, onclick: () => openChannel(id) }, label,
      unread === "ping" ? el("span", { class: "badge" }, "@") : null);
  };
  for (const g of S.state.guilds) {
    for (const c of g.channels) {
      nav.append(link(c.id, "", `# ${c.name}`));
      for (const t of c.threads) {
        nav.append(link(t.id, `thread${t.archived ? " archived" : ""}`, `└ ${t.name}`, t.archived ? "archived" : t.name));
      }
    }
  }
  $("#dm-link").replaceChildren(link("dm", "", `@ ${S.state.bot.name}`));
  renderStatus();
}

function renderStatus() {
  const gw = S.state ? S.state.gateway : null;
  const node = $("#gateway-status");
  node.className = S.online && gw && gw.connected ? "ok" : "down";
  node.textContent = !S.online ? "sandbox offline · reconnecting…" : gw && gw.connected ? "bot online" : "bot offline";
  node.title = gw ? `gateway: ${gw.connected} connected · ${gw.identifies} identifies · ${gw.resumes} resumes` : "";
  $("#offline").hidden = S.online;
}

async function refreshState() {
  S.state = await api("state");
  const humans = S.state.users.filter((u) => !u.bot);
  if (!humans.some((u) => u.id === S.me)) S.me = (humans.find((u) => u.id === saved("me")) || humans[0] || {}).id;
  if (S.channel !== "dm" && !allChannels().some((c) => c.id === S.channel)) {
    const remembered = saved("channel");
    S.channel = remembered === "dm" || allChannels().some((c) => c.id === remembered)
      ? remembered : (allChannels().find((c) => c.name === "games") || allChannels()[0] || {}).id || "dm";
  }
  renderSidebar();
}

// ---------------------------------------------------------------------------------------------------- messages

function isVisibleHere(m) {
  if (S.channel === "dm") return m.audience.kind === "dm" && m.audience.user_id === S.me;
  return m.channel_id === S.channel;
}

async function openChannel(id, { keepCommand = false } = {}) {
  const moved = id !== S.channel;
  S.channel = id;
  save("channel", id);
  S.unread.delete(id);
  if (!keepCommand) hideCommandUi();
  const path = id === "dm" ? `dms?user=${S.me}` : `messages?channel=${id}&viewer=${S.me}`;
  const list = await api(path);
  if (S.channel !== id) return;  // another channel was opened meanwhile
  S.messages = new Map(list.map((m) => [m.id, m]));
  renderSidebar();
  renderHeader();
  renderMessages(moved);
  await loadCommands();
  document.body.dataset.view = `${S.me}:${id}`;  // what the page shows now (tests wait on it)
}

function renderHeader() {
  if (S.channel === "dm") {
    $("#channel-title").textContent = `@ ${S.state.bot.name}`;
    $("#channel-sub").textContent = `direct messages of ${userName(S.me)}`;
    return;
  }
  const ch = allChannels().find((c) => c.id === S.channel);
  const parent = ch && ch.parent_id ? allChannels().find((c) => c.id === ch.parent_id) : null;
  $("#channel-title").textContent = !ch ? "" : parent ? `# ${parent.name} › ${ch.name}` : `# ${ch.name}`;
  const members = ch ? ch.member_ids.length : 0;
  $("#channel-sub").textContent = ch && ch.parent_id
    ? `thread · ${members} ${members === 1 ? "member" : "members"}${ch.archived ? " · archived" : ""}${ch.locked ? " · locked" : ""}`
    : "";
}

function renderMessages(toBottom = false) {
  const box = $("#messages");
  const stick = toBottom || box.scrollTop + box.clientHeight >= box.scrollHeight - 40;
  const ordered = [...S.messages.values()].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const nodes = new Map();
  for (const m of ordered) {
    // A message object is replaced whenever it changes (create, edit): render only those, keep the rest.
    const cached = S.nodes.get(m.id);
    nodes.set(m.id, cached && cached.msg === m && cached.me === S.me ? cached : { msg: m, me: S.me, node: renderMessage(m) });
  }
  S.nodes = nodes;
  const wanted = ordered.length ? [...nodes.values()].map((n) => n.node)
    : [el("div", { class: "empty" }, S.channel === "dm" ? "No direct messages yet." : "No messages yet. Type / for commands.")];
  // Move the DOM to the wanted list without detaching what is already in place (no relayout of old images).
  let cursor = box.firstChild;
  for (const node of wanted) {
    if (cursor === node) { cursor = cursor.nextSibling; continue; }
    box.insertBefore(node, cursor);
  }
  while (cursor) { const next = cursor.nextSibling; cursor.remove(); cursor = next; }
  if (stick) {
    box.scrollTop = box.scrollHeight;
    // Images load after the layout: keep the newest message in view once they have their size.
    for (const img of box.querySelectorAll("img")) {
      if (!img.complete) img.addEventListener("load", () => { box.scrollTop = box.scrollHeight; }, { once: true });
    }
  }
}

function markdown(text) {
  const esc = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return esc
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention">@${userName(id).replace(/</g, "")}</span>`)
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => {
      const ch = allChannels().find((c) => c.id === id);
      return `<span class="mention">#${ch ? ch.name.replace(/</g, "") : id}</span>`;
    })
    .replace(/https?:\/\/[^\s<)]+/g, (url) => {
      // Jump links to Discord channels open the channel here instead.
      const jump = url.match(/discord\.com\/channels\/[^/]+\/(\d+)/);
      if (jump) {
        const ch = allChannels().find((c) => c.id === jump[1]);
        const label = ch ? `#${ch.name.replace(/</g, "")}` : "↪ jump";
        return `<a href="#" class="jump" data-channel="${jump[1]}">${label}</a>`;
      }
      return `<a href="${url.replace(/"/g, "%22")}" target="_blank" rel="noopener">${url}</a>`;
    })
    .replace(/```(?:[a-z]*\n)?([\s\S]*?)```/g, (_, code) => `<pre>${code.replace(/\*/g, "&#42;").replace(/_/g, "&#95;")}</pre>`)
    .replace(/\*\*(.+?)\*\*/g, "<b>$1</b>")
    .replace(/~~(.+?)~~/g, "<s>$1</s>")
    .replace(/\|\|(.+?)\|\|/g, '<span class="spoiler" title="spoiler">$1</span>')
    .replace(/^&gt; (.*)$/gm, '<span class="quote">$1</span>')
    .replace(/^-# (.*)$/gm, '<span class="subtext">$1</span>')
    .replace(/__(.+?)__/g, "<u>$1</u>")
    .replace(/\*(.+?)\*/g, "<i>$1</i>")
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/^### (.*)$/gm, "<b>$1</b>")
    .replace(/^## (.*)$/gm, "<b>$1</b>")
    .replace(/^# (.*)$/gm, "<b>$1</b>");
}

function rich(text) {
  const node = el("div", { class: "content" });
  node.innerHTML = markdown(text || "");
  return node;
}

function renderMessage(m) {
  const classes = ["msg"];
  if (m.ephemeral) classes.push("ephemeral");
  if (m.pinged.includes(S.me)) classes.push("pinged");
  const head = el("div", { class: "head" },
    el("span", { class: "author" }, m.author.name),
    m.author.bot ? el("span", { class: "tag" }, "APP") : null,
    el("span", { class: "time" }, new Date(m.created_at).toLocaleTimeString()));
  const body = [];
  if (m.interaction_user_id) body.push(el("div", { class: "via" }, `↪ ${userName(m.interaction_user_id)} ${usedWhat(m.interaction_name)}`));
  if (m.loading) body.push(el("div", { class: "loading" }, `${m.author.name} is thinking…`));
  if (m.content) {
    const c = rich(m.content);
    if (m.edited_at) c.append(el("span", { class: "edited" }, " (edited)"));
    body.push(c);
  }
  for (const e of m.embeds) body.push(renderEmbed(e));
  for (const comp of m.components) body.push(renderComponent(m, comp));
  // Files shown inside an embed or a media component are not listed again under the message.
  const referenced = JSON.stringify([m.embeds, m.components]);
  const listed = m.attachments.filter((a) => !referenced.includes(a.url));
  const images = listed.filter((a) => (a.content_type || "").startsWith("image/"));
  const others = listed.filter((a) => !images.includes(a));
  body.push(el("div", { class: "attachments" },
    images.map((a) => el("a", { href: a.url, target: "_blank" }, el("img", { src: a.url, alt: a.filename, loading: "lazy" }))),
    others.map((a) => el("div", {}, "📎 ", el("a", { href: a.url, target: "_blank" }, `${a.filename} (${a.size} bytes)`)))));
  if (!m.content && m.edited_at) body.push(el("span", { class: "edited" }, "(edited)"));
  if (m.ephemeral) {
    body.push(el("div", { class: "note" }, eyeIcon(), "Only you can see this · ",
      el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); S.messages.delete(m.id); renderMessages(); } },
        "Dismiss message")));
  }
  // data-edited: which version of the message is shown (tests wait for the page to catch up with the feed).
  return el("div", { class: classes.join(" "), "data-id": m.id, "data-audience": m.audience.kind,
    "data-edited": m.edited_at || "" }, head, body);
}

function usedWhat(name) {
  // "/play new" as is; "click table:turn:1" / "select mvs:…" as the label of that component, when shown here.
  const [verb, ...rest] = (name || "").split(" ");
  if (verb.startsWith("/")) return `used ${name}`;
  if (name === "submit modal") return "submitted a form";
  if (verb !== "click" && verb !== "select") return name ? `used ${name}` : "";
  const id = rest.join(" ");
  for (const other of S.messages.values()) {
    const stack = [...other.components];
    while (stack.length) {
      const c = stack.pop();
      if (c.custom_id === id) {
        const label = c.label || c.placeholder;
        if (label) return verb === "click" ? `clicked “${label}”` : `chose from “${label}”`;
      }
      for (const key of ["components", "accessory", "component"]) {
        const child = c[key];
        if (Array.isArray(child)) stack.push(...child); else if (child && typeof child === "object") stack.push(child);
      }
    }
  }
  return verb === "click" ? "clicked a button" : "chose from a menu";
}

function eyeIcon() {
  const span = el("span", { class: "icon" });
  span.innerHTML = '<svg viewBox="0 0 24 24" width="14" height="14" aria-hidden="true"><path fill="currentColor" '
    + 'd="M12 5C5.6 5 2 12 2 12s3.6 7 10 7 10-7 10-7-3.6-7-10-7zm0 11a4 4 0 1 1 0-8 4 4 0 0 1 0 8zm0-2a2 2 0 1 0 0-4 2 2 0 0 0 0 4z"/></svg>';
  return span;
}

function renderEmbed(e) {
  const colour = e.color !== undefined ? `#${e.color.toString(16).padStart(6, "0")}` : null;
  return el("div", { class: "embed", style: colour ? `border-left-color:${colour}` : null },
    e.thumbnail ? el("img", { class: "embed-thumb", src: e.thumbnail.url }) : null,
    e.author ? el("div", { class: "via" }, e.author.name) : null,
    e.title ? el("div", { class: "title" }, e.title) : null,
    e.description ? rich(e.description) : null,
    e.fields ? el("div", { class: "fields" }, e.fields.map((f) =>
      el("div", {}, el("div", { class: "field-name" }, f.name), rich(f.value)))) : null,
    e.image ? el("img", { src: e.image.url }) : null,
    e.footer ? el("div", { class: "note" }, e.footer.text) : null);
}

function mediaUrl(m, url) {
  // attachment://name refers to a file uploaded with the same message.
  if (url && url.startsWith("attachment://")) {
    const att = m.attachments.find((a) => a.filename === url.slice(13));
    return att ? att.url : "";
  }
  return url;
}

function renderComponent(m, c) {
  switch (c.type) {
    case 1: return el("div", { class: "row" }, c.components.map((x) => renderComponent(m, x)));
    case 2: return renderButton(m, c);
    case 3: case 5: case 6: case 7: case 8: return renderSelect(m, c);
    case 9: return el("div", { class: "section" }, el("div", {}, c.components.map((x) => renderComponent(m, x))),
      c.accessory ? renderComponent(m, c.accessory) : null);
    case 10: return rich(c.content);
    case 11: return el("img", { class: "thumb", src: mediaUrl(m, c.media && c.media.url) });
    case 12: return el("div", { class: "gallery" }, c.items.map((i) => el("img", { src: mediaUrl(m, i.media.url) })));
    case 13: return el("div", {}, "📎 ", (c.file && c.file.url) || "file");
    case 14: return el("div", { class: c.divider === false ? "" : "separator" });
    case 17: {
      const colour = c.accent_color !== undefined && c.accent_color !== null
        ? `border-left-color:#${c.accent_color.toString(16).padStart(6, "0")}` : null;
      return el("div", { class: "container", style: colour }, c.components.map((x) => renderComponent(m, x)));
    }
    default: return el("div", { class: "note" }, `[component type ${c.type}]`);
  }
}

function renderButton(m, c) {
  const label = `${c.emoji && c.emoji.name ? c.emoji.name + " " : ""}${c.label || ""}`;
  if (c.style === 5) return el("a", { href: c.url, target: "_blank" }, el("button", { class: "c s5", type: "button" }, `${label} ↗`));
  const btn = el("button", { class: `c s${c.style}`, type: "button", disabled: !!c.disabled, "data-custom-id": c.custom_id }, label);
  btn.addEventListener("click", () => act(btn, "click", { message: m.id, custom_id: c.custom_id }));
  return btn;
}

function renderSelect(m, c) {
  const multi = (c.max_values || 1) > 1;
  const options = c.type === 3 ? c.options : S.state.users.filter((u) => !u.bot).map((u) => ({ label: u.name, value: u.id }));
  const sel = el("select", { class: "c", disabled: !!c.disabled, multiple: multi, size: multi ? Math.min(options.length, 6) : null,
    "data-custom-id": c.custom_id },
    multi ? null : el("option", { value: "", selected: true, disabled: true }, c.placeholder || "Make a selection"),
    options.map((o) => el("option", { value: o.value, selected: multi && !!o.default }, o.label + (o.description ? ` — ${o.description}` : ""))));
  const send = () => {
    const values = [...sel.selectedOptions].map((o) => o.value).filter((v) => v !== "");
    act(sel, "select", { message: m.id, custom_id: c.custom_id, values });
  };
  if (!multi) { sel.addEventListener("change", send); return sel; }
  return el("div", { class: "row" }, sel, el("button", { class: "c s2", type: "button", disabled: !!c.disabled, onclick: send }, "Choose"));
}

// ---------------------------------------------------------------------------------------------------- actions

async function act(control, kind, body) {
  if (control.classList.contains("busy")) return;  // one interaction per click, as in Discord
  control.classList.add("busy");
  try {
    const result = await api(kind, { user: S.me, ...body });
    handleResult(result);
  } catch (err) {
    toast(`Refused: ${err.message}`);
  } finally {
    control.classList.remove("busy");
  }
}

function handleResult(result) {
  if (!result.interaction_id) return;
  if (result.callback_type === null) toast("This interaction failed (the bot did not answer in time).");
  else if (!result.complete) toast("The bot acknowledged but has not finished yet.", "info");
  if (result.modal) openModal(result);
  for (const m of [...result.messages, ...result.edited]) upsert(m);
}

function upsert(m, fromFeed = false) {
  if (m.audience.kind === "ephemeral" && m.audience.user_id !== S.me) return;
  if (m.audience.kind === "dm" && m.audience.user_id !== S.me) return;
  if (!isVisibleHere(m)) {
    if (fromFeed && !S.messages.has(m.id)) markUnread(m);
    return;
  }
  // An interaction's answer can carry a message as it was before an edit the feed has brought already.
  const held = S.messages.get(m.id);
  if (held && (held.edited_at || "") > (m.edited_at || "")) return;
  S.messages.set(m.id, m);
  renderMessages();
}

function markUnread(m) {
  // A new message elsewhere: the channel (or the DMs) is marked, "@" when it pings us or is a DM.
  const where = m.audience.kind === "dm" ? "dm" : m.channel_id;
  if (where === S.channel || !m.author.bot && m.author.id === S.me) return;
  const ping = m.audience.kind === "dm" || m.pinged.includes(S.me);
  if (ping || !S.unread.has(where)) S.unread.set(where, ping ? "ping" : "new");
  renderSidebar();
}

function openModal(result) {
  const modal = result.modal;
  const form = $("#modal");
  const fields = [];
  for (const row of modal.components) {
    const inputs = row.type === 18 ? [{ ...row.component, label: row.label }] : row.type === 1 ? row.components : [];
    for (const input of inputs) {
      if (input.type !== 4) continue;
      const attrs = { name: input.custom_id, placeholder: input.placeholder || "", required: input.required !== false,
        minlength: input.min_length, maxlength: input.max_length };
      const field = input.style === 2 ? el("textarea", attrs, input.value || "") : el("input", { ...attrs, value: input.value || "" });
      fields.push(el("label", {}, input.label || input.custom_id), field);
    }
  }
  form.replaceChildren(el("h3", {}, modal.title), ...fields,
    el("div", { class: "actions" },
      el("button", { class: "c s2", type: "button", onclick: () => { $("#modal-backdrop").hidden = true; } }, "Cancel"),
      el("button", { class: "c s1", type: "submit" }, "Submit")));
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const values = Object.fromEntries(new FormData(form).entries());
    $("#modal-backdrop").hidden = true;
    try {
      handleResult(await api("modal", { user: S.me, interaction: result.interaction_id, values }));
    } catch (err) {
      toast(`Refused: ${err.message}`);
    }
  };
  $("#modal-backdrop").hidden = false;
}

// ---------------------------------------------------------------------------------------------------- slash commands

async function loadCommands() {
  S.commands = [];
  const target = S.channel === "dm" ? S.state.dm_channels[S.me] : S.channel;
  if (!target) return;
  const raw = await api(`commands?channel=${target}`);
  const walk = (prefix, options, cmd) => {
    const subs = (options || []).filter((o) => o.type === 1 || o.type === 2);
    if (!subs.length) {
      S.commands.push({ path: prefix.join(" "), description: cmd.description, options: options || [],
        managerOnly: !!cmd.default_member_permissions && cmd.default_member_permissions !== "0" });
      return;
    }
    for (const s of subs) walk([...prefix, s.name], s.options, { ...s, default_member_permissions: cmd.default_member_permissions });
  };
  for (const cmd of raw) if ((cmd.type || 1) === 1) walk([cmd.name], cmd.options, cmd);
  S.commands.sort((a, b) => a.path.localeCompare(b.path));
}

function hideCommandUi() {
  $("#command-popup").hidden = true;
  $("#command-form").hidden = true;
}

function commandMatches(text) {
  const query = text.slice(1).trim().toLowerCase().replace(/\s+/g, " ");
  const usable = S.commands.filter((c) => !c.managerOnly || meUser().manager);
  const first = usable.filter((c) => c.path.startsWith(query));
  return [...first, ...usable.filter((c) => !first.includes(c) && c.path.includes(query))];
}

function showCommandPopup(text) {
  const matches = commandMatches(text);
  const popup = $("#command-popup");
  if (!matches.length) { popup.replaceChildren(el("div", { class: "note" }, "No matching commands")); popup.hidden = false; return; }
  popup.replaceChildren(...matches.map((c) => el("div", { class: "cmd", onclick: () => showCommandForm(c) },
    `/${c.path}`, el("span", { class: "desc" }, c.description || ""),
    c.options.length ? el("span", { class: "desc" }, c.options.map((o) => (o.required ? o.name : `[${o.name}]`)).join(" ")) : null)));
  popup.hidden = false;
}

function optionInput(cmd, opt, form) {
  const id = `opt-${opt.name}`;
  let input;
  if (opt.choices && opt.choices.length) {
    input = el("select", { id, name: opt.name }, opt.required ? null : el("option", { value: "" }, "—"),
      opt.choices.map((ch) => el("option", { value: JSON.stringify(ch.value) }, ch.name)));
  } else if (opt.type === 5) {
    input = el("select", { id, name: opt.name }, opt.required ? null : el("option", { value: "" }, "—"),
      el("option", { value: "true" }, "True"), el("option", { value: "false" }, "False"));
  } else if (opt.type === 6 || opt.type === 9) {
    input = el("select", { id, name: opt.name }, opt.required ? null : el("option", { value: "" }, "—"),
      S.state.users.filter((u) => !u.bot).map((u) => el("option", { value: JSON.stringify(u.id) }, u.name)));
  } else if (opt.type === 7) {
    input = el("select", { id, name: opt.name }, opt.required ? null : el("option", { value: "" }, "—"),
      allChannels().map((c) => el("option", { value: JSON.stringify(c.id) }, c.name)));
  } else {
    const numeric = opt.type === 4 || opt.type === 10;
    input = el("input", { id, name: opt.name, type: numeric && !opt.autocomplete ? "number" : "text",
      step: opt.type === 10 ? "any" : null, min: opt.min_value, max: opt.max_value, maxlength: opt.max_length,
      required: !!opt.required, autocomplete: "off" });
  }
  const wrap = el("div", { class: "opt" },
    el("label", { for: id }, `${opt.name}${opt.required ? " *" : ""} — ${opt.description || ""}`), input);
  if (opt.autocomplete) {
    const box = el("div", { class: "suggest" });
    wrap.append(box);
    let timer = null;
    const suggest = () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        try {
          const options = collectOptions(cmd, form);
          options[opt.name] = input.value;
          const res = await api("autocomplete", { user: S.me, channel: currentTarget(), command: cmd.path, options, focused: opt.name });
          box.replaceChildren(...res.choices.map((ch) => el("div", { onclick: () => {
            // Like Discord: the field shows the choice's name, the command gets its value.
            input.value = ch.name; input.dataset.value = JSON.stringify(ch.value); box.replaceChildren();
          } }, ch.name)));
        } catch (err) {
          box.replaceChildren(el("div", { class: "note" }, err.message));
        }
      }, 150);
    };
    input.addEventListener("input", () => { delete input.dataset.value; suggest(); });
    input.addEventListener("focus", suggest);
  }
  return wrap;
}

function coerce(opt, raw) {
  if (opt.type === 4) return parseInt(raw, 10);
  if (opt.type === 10) return parseFloat(raw);
  return raw;
}

function collectOptions(cmd, form) {
  const out = {};
  for (const opt of cmd.options) {
    const input = form.querySelector(`[name="${CSS.escape(opt.name)}"]`);
    if (!input || input.value === "") continue;
    if (input.tagName === "SELECT") out[opt.name] = JSON.parse(input.value);
    else if (input.dataset.value) out[opt.name] = JSON.parse(input.dataset.value);
    else out[opt.name] = coerce(opt, input.value);
  }
  return out;
}

const currentTarget = () => (S.channel === "dm" ? S.state.dm_channels[S.me] : S.channel);

function showCommandForm(cmd) {
  $("#command-popup").hidden = true;
  const form = $("#command-form");
  form.replaceChildren(el("div", { class: "title" }, el("b", {}, `/${cmd.path}`), el("span", { class: "desc" }, ` ${cmd.description || ""}`)));
  for (const opt of cmd.options) form.append(optionInput(cmd, opt, form));
  form.append(el("div", { class: "actions" },
    el("button", { class: "c s1", type: "submit" }, "Send"),
    el("button", { class: "c s2", type: "button", onclick: () => { hideCommandUi(); $("#composer-input").value = ""; } }, "Cancel")));
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button[type=submit]");
    hideCommandUi();
    $("#composer-input").value = "";
    await act(button, "slash", { channel: currentTarget(), command: cmd.path, options: collectOptions(cmd, form) });
  };
  form.hidden = false;
  const first = form.querySelector("input, select");
  if (first) first.focus();
}

// ---------------------------------------------------------------------------------------------------- feed

function connectFeed() {
  if (S.feed) { S.feed.onclose = null; S.feed.close(); }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/_sandbox/events?viewer=${S.me}`);
  ws.onopen = async () => {
    if (S.online) return;
    // The sandbox came back (a restart of `make run`): reload everything, the world may have moved on.
    try {
      await refreshState();
      S.online = true;
      await openChannel(S.channel, { keepCommand: true });
      toast("Reconnected to the sandbox.", "info");
    } catch (err) {
      ws.close();
    }
  };
  ws.onmessage = (ev) => {
    const event = JSON.parse(ev.data);
    if (event.type === "message_create") upsert(event.message, true);
    else if (event.type === "message_update") upsert(event.message);
    else if (event.type === "message_delete") { S.messages.delete(event.message_id); renderMessages(); }
    else if (event.type === "commands_synced") loadCommands();
    else if (/^(thread|channel)_/.test(event.type)) refreshState().then(renderHeader);
  };
  ws.onclose = () => {
    if (S.feed !== ws) return;
    if (S.online) { S.online = false; renderStatus(); }
    setTimeout(connectFeed, 1000);
  };
  S.feed = ws;
}

// ---------------------------------------------------------------------------------------------------- wiring

$("#messages").addEventListener("click", (ev) => {
  const link = ev.target.closest("a.jump");
  if (!link) return;
  ev.preventDefault();
  const id = link.dataset.channel;
  openChannel(id === S.state.dm_channels[S.me] ? "dm" : id);
});

$("#composer-input").addEventListener("input", (ev) => {
  const text = ev.target.value;
  if (text.startsWith("/")) showCommandPopup(text);
  else hideCommandUi();
});

$("#composer").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const input = $("#composer-input");
  const text = input.value.trim();
  if (!text) return;
  if (text.startsWith("/")) {
    const exact = S.commands.find((c) => `/${c.path}` === text) || commandMatches(text)[0];
    if (exact) showCommandForm(exact);
    return;
  }
  if (S.channel === "dm") { toast("The bot's DMs are read-only in the sandbox.", "info"); return; }
  input.value = "";
  try {
    const res = await api("say", { user: S.me, channel: S.channel, content: text });
    upsert(res.message);
  } catch (err) {
    toast(`Refused: ${err.message}`);
  }
});

$("#user-switch").addEventListener("change", async (ev) => {
  S.me = ev.target.value;
  save("me", S.me);
  S.unread.clear();
  connectFeed();
  await openChannel(S.channel);
});

// The sidebar (threads, the bot's connection) is refreshed every 5 s, every second while the bot is away.
(function poll() {
  const botAway = !S.state || !S.state.gateway.connected;
  setTimeout(async () => {
    if (S.online) await refreshState().catch(() => {});
    poll();
  }, botAway ? 1000 : 5000);
})();

(async function boot() {
  try {
    await refreshState();
  } catch (err) {
    // The sandbox is not up (yet): keep trying, the page comes alive when it does.
    S.online = false;
    renderStatus();
    setTimeout(boot, 1000);
    return;
  }
  connectFeed();
  await openChannel(S.channel);
})();
