// Pages are addressed by the URL's fragment (#/agents, #/tasks/<id>): the hub serves one page, and
// nothing secret ever goes in the address.
import { useEffect, useState } from 'preact/hooks';

export function useRoute(): string[] {
  const read = () =>
    location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const on = () => setParts(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return parts;
}

export const href = (...parts: string[]) => `#/${parts.map(encodeURIComponent).join('/')}`;
