// Sizzle's browser client: mounts the app (docs/web.md).
import { render } from "preact";
import { App } from "./ui/App.js";
import "./style.css";

render(<App />, document.getElementById("app")!);
