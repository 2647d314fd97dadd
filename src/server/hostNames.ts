// Which Host headers a page signed in by cookie answers (the support console): DNS rebinding points
// a name of another site at this server, and its pages would then read the console as their own
// origin. The server's own names are its listening address, localhost and the loopback addresses
// on its port, and the host of --public-url; an operator names any other (a proxy's name) with a flag.

/** `names`: extra host names, each with a port, or without one (any port, and the default). */
export function hostCheck(own: () => { port: number; addresses: string[]; publicUrl?: string }, names: string[] = []) {
  const given = names.map((n) => n.trim().toLowerCase()).filter(Boolean);
  return (host: string): boolean => {
    const h = host.trim().toLowerCase();
    if (!h) return false;
    const { port, addresses, publicUrl } = own();
    const allowed = new Set(
      [...addresses, 'localhost', '127.0.0.1', '[::1]'].map(
        (a) => `${a.includes(':') && !a.startsWith('[') ? `[${a}]` : a}:${port}`,
      ),
    );
    if (publicUrl) allowed.add(new URL(publicUrl).host.toLowerCase());
    if (allowed.has(h)) return true;
    const bare = h.replace(/:\d+$/, '');
    return given.some((g) => g === h || g === bare);
  };
}
