// A game's content (its printed components: cards, tiles, tracks, boards) from RulesService.GetGame,
// fetched once per game and kept: boards draw what the view names by id from it.
import type { Message } from "@bufbuild/protobuf";
import { useEffect, useState } from "preact/hooks";
import { rulesApi, withToken } from "../api.js";
import { unpack } from "../registry.js";

const cache = new Map<string, Promise<Message | undefined>>();

export function loadContent(gameId: string): Promise<Message | undefined> {
  let pending = cache.get(gameId);
  if (!pending) {
    pending = rulesApi.getGame({ gameId }, withToken(undefined)).then((r) => unpack(r.content));
    pending.catch(() => cache.delete(gameId));
    cache.set(gameId, pending);
  }
  return pending;
}

export function useContent<T extends Message>(gameId: string): T | undefined {
  const [content, setContent] = useState<T>();
  useEffect(() => {
    let live = true;
    loadContent(gameId).then((c) => live && setContent(c as T | undefined), () => undefined);
    return () => { live = false; };
  }, [gameId]);
  return content;
}
