import { loadConfig } from '../../config/environment';
import { endpointPortProblem, endpointUrlProblem } from './endpoint-url';

/**
 * The port rule of webhook endpoint URLs (issue 30 point 4): only the ports the worker's egress
 * NetworkPolicy opens, WEBHOOK_ALLOWED_PORTS (443 and 80 by default); with
 * WEBHOOK_ALLOW_PRIVATE_URLS (development, tests) any port. Hosts are public IP literals: no DNS.
 */
describe('webhook endpoint URL ports', () => {
  const strict = { allowPrivateUrls: false, allowedPorts: [443, 80] };

  it('reads WEBHOOK_ALLOWED_PORTS: 443 and 80 by default, a list when set, and refuses what is no port', () => {
    expect(loadConfig({}).webhooks.allowedPorts).toEqual([443, 80]);
    expect(loadConfig({ WEBHOOK_ALLOWED_PORTS: ' 8443, 443,8443' }).webhooks.allowedPorts).toEqual([8443, 443]);
    for (const bad of ['443;80', '0', '65536', 'https', '443,']) {
      expect(() => loadConfig({ WEBHOOK_ALLOWED_PORTS: bad })).toThrow('WEBHOOK_ALLOWED_PORTS');
    }
  });

  it.each(['https://93.184.215.14/hook', 'https://93.184.215.14:443/hook', 'https://93.184.215.14:80/hook'])(
    'admits %s by default',
    async (url) => {
      expect(await endpointUrlProblem(url, strict)).toBeNull();
    },
  );

  it.each([
    'https://93.184.215.14:8443/hook',
    'https://93.184.215.14:22/',
    'https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:444/',
  ])('refuses %s, naming the allowed ports', async (url) => {
    expect(await endpointUrlProblem(url, strict)).toBe("the URL's port must be one of 443, 80");
  });

  it('follows the configured ports: 8443 alone admits :8443 and refuses the default 443', async () => {
    const custom = { allowPrivateUrls: false, allowedPorts: [8443] };
    expect(await endpointUrlProblem('https://93.184.215.14:8443/hook', custom)).toBeNull();
    expect(await endpointUrlProblem('https://93.184.215.14/hook', custom)).toBe("the URL's port must be one of 8443");
  });

  it("takes the scheme's default port when the URL names none", () => {
    expect(endpointPortProblem(new URL('http://93.184.215.14/'), [80])).toBeNull();
    expect(endpointPortProblem(new URL('http://93.184.215.14/'), [443])).toBe("the URL's port must be one of 443");
  });

  it('checks the scheme first, and the port before the address', async () => {
    expect(await endpointUrlProblem('http://93.184.215.14:8080/', strict)).toBe('the URL must use https');
    expect(await endpointUrlProblem('https://10.1.2.3:8443/', strict)).toBe("the URL's port must be one of 443, 80");
    expect(await endpointUrlProblem('https://10.1.2.3/', strict)).toBe('the URL host must be a public address');
  });

  it('WEBHOOK_ALLOW_PRIVATE_URLS admits any port (test receivers listen on random ports)', async () => {
    expect(
      await endpointUrlProblem('http://127.0.0.1:54321/hooks', { allowPrivateUrls: true, allowedPorts: [443, 80] }),
    ).toBeNull();
  });
});
