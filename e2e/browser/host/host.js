// A test MCP Apps host page built on the official host bridge
// (@modelcontextprotocol/ext-apps' AppBridge): it loads an app's HTML in a
// sandboxed iframe, hands it a tool call's input and result, forwards the
// app's tools/call to the test (window.callTool, which calls the real
// elicit server), and records what the app gives the model.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

window.startApp = async function (appHTML, toolArgs, toolResult) {
  const host = { modelContext: [], messages: [], toolCalls: [], initialized: false };
  window.__host = host;
  const iframe = document.createElement("iframe");
  iframe.setAttribute("sandbox", "allow-scripts allow-forms");
  iframe.style.cssText = "width:720px;height:800px;border:1px solid #888";
  document.body.append(iframe);
  const bridge = new AppBridge(null, { name: "elicit-test-host", version: "1.0.0" },
    { serverTools: {}, updateModelContext: { text: {}, structuredContent: {} }, message: { text: {} } });
  bridge.oncalltool = async (params) => {
    host.toolCalls.push(params.name);
    return JSON.parse(await window.callTool(JSON.stringify(params)));
  };
  bridge.onupdatemodelcontext = async (params) => { host.modelContext.push(params); return {}; };
  bridge.onmessage = async (params) => { host.messages.push(params); return {}; };
  bridge.onsizechange = ({ height }) => { if (height) iframe.style.height = height + 16 + "px"; };
  bridge.oninitialized = async () => {
    host.initialized = true;
    await bridge.sendToolInput({ arguments: toolArgs });
    await bridge.sendToolResult(toolResult);
  };
  // The bridge listens before the app loads, as a host's must: the app
  // sends ui/initialize as soon as it runs.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  iframe.srcdoc = appHTML;
};
