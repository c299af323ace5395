// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  buildTestWebhookPayload,
  DEFAULT_INSTITUTIONS,
  DEFAULT_RETRY,
  SandboxConfigError,
  startSandbox,
} from '../../src/sandbox/index';
import type { SandboxOptions } from '../../src/sandbox/index';
import { createDeliverer, retryDelay } from '../../src/sandbox/deliveries/deliverer';
import { escapeHtml } from '../../src/sandbox/pages/page';
import {
  initials,
  institutionIconSvg,
  textColourFor,
} from '../../src/sandbox/contract/institutions';
import { trimPemArmour } from '../../src/sandbox/keys/keys';
import { startReceiver } from './support/receiver';

function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const channel = (i: number) => {
      const c = parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('institution icons', () => {
  it.each([
    ['Barclays', 'B'],
    ['HSBC UK', 'HSBC'],
    ['Lloyds Bank', 'LB'],
    ['first direct', 'FD'],
    ['Bank of Scotland', 'BS'],
    ['Royal Bank of Scotland', 'RBS'],
    ['Co-operative Bank', 'CB'],
  ])('%s → %s', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });

  it('draws every default icon with initials of at least 3:1 contrast (large bold text)', () => {
    for (const { colour } of DEFAULT_INSTITUTIONS) {
      expect(contrast(colour!, textColourFor(colour!))).toBeGreaterThanOrEqual(3);
    }
  });

  it('escapes the name in the SVG', () => {
    const svg = institutionIconSvg('A<b>&"c', '#000000');
    expect(svg).toContain('<title>A&lt;b&gt;&amp;&quot;c</title>');
    expect(svg).not.toContain('<b>');
  });

  it('has about twenty default institutions with unique ids', () => {
    expect(DEFAULT_INSTITUTIONS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(DEFAULT_INSTITUTIONS.map((i) => i.id)).size).toBe(DEFAULT_INSTITUTIONS.length);
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;',
    );
  });
});

describe('trimPemArmour', () => {
  it('keeps the base64 lines only', () => {
    expect(
      trimPemArmour('-----BEGIN PUBLIC KEY-----\r\nAAAA\r\nBBBB\r\n-----END PUBLIC KEY-----\r\n'),
    ).toBe('AAAA\nBBBB');
  });
});

describe('retry policy', () => {
  it('waits initialDelayMs × factor^(n-1), capped at maxDelayMs', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, DEFAULT_RETRY))).toEqual([
      500, 1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
  });

  it('is bounded by default: 20 attempts, 5 s each at most', () => {
    expect(DEFAULT_RETRY).toEqual({
      initialDelayMs: 500,
      factor: 2,
      maxDelayMs: 30000,
      maxAttempts: 20,
      timeoutMs: 5000,
    });
  });

  it('leaves nothing pending once stopped, and sends nothing after', async () => {
    const receiver = await startReceiver(() => 500);
    let retrying!: () => void;
    const scheduled = new Promise<void>((resolve) => (retrying = resolve));
    const deliverer = createDeliverer({
      url: new URL(receiver.url),
      retry: { ...DEFAULT_RETRY, initialDelayMs: 60_000 },
      history: 100,
      kept: 100,
      headers: () => ({ 'Content-Type': 'application/json' }),
      log: () => {},
      onAttempt: (attempt) => attempt.outcome === 'retrying' && retrying(),
    });
    deliverer.deliver('p-1', 'COMPLETED', '{}');
    await scheduled;
    expect(deliverer.pending()).toBe(1);
    await deliverer.stop();
    expect(deliverer.pending()).toBe(0);
    deliverer.deliver('p-2', 'COMPLETED', '{}');
    expect(deliverer.pending()).toBe(0);
    expect(receiver.requests).toHaveLength(1);
    await receiver.stop();
  });
});

describe('buildTestWebhookPayload', () => {
  it('builds the two spec 5.3 examples with the service key order', () => {
    const completed = buildTestWebhookPayload('COMPLETED');
    expect(Object.keys(completed)).toEqual([
      'paymentId',
      'merchantPaymentId',
      'paymentStatus',
      'errorDescription',
      'paymentRequest',
      'paymentMetadata',
      'paymentRefundData',
    ]);
    expect(completed).toMatchObject({
      paymentStatus: 'COMPLETED',
      errorDescription: null,
      paymentRefundData: null,
    });
    expect(buildTestWebhookPayload('FAILED')).toMatchObject({
      paymentStatus: 'FAILED',
      errorDescription: 'The bank reported an error',
    });
    expect(buildTestWebhookPayload('FAILED').paymentId).not.toBe(
      buildTestWebhookPayload('FAILED').paymentId,
    );
  });

  it('never puts an errorDescription on COMPLETED', () => {
    expect(
      buildTestWebhookPayload('COMPLETED', { errorDescription: 'x' }).errorDescription,
    ).toBeNull();
  });
});

describe('startSandbox options', () => {
  it.each<[string, SandboxOptions, string]>([
    ['port', { port: 70000 }, 'port'],
    ['port', { port: 1.5 }, 'port'],
    ['webhookUrl', { webhookUrl: 'localhost:3000/hook' }, 'webhookUrl'],
    ['webCallbackUrl', { webCallbackUrl: 'javascript:alert(1)' }, 'webCallbackUrl'],
    ['mobileCallbackUrl', { mobileCallbackUrl: 'data:text/html,x' }, 'mobileCallbackUrl'],
    ['institutions', { institutions: [] }, 'institutions'],
    ['institutions', { institutions: [{ id: 'Bad Id', name: 'x' }] }, 'institutions'],
    [
      'institutions',
      {
        institutions: [
          { id: 'a', name: 'A' },
          { id: 'a', name: 'B' },
        ],
      },
      'institutions',
    ],
    ['institutions', { institutions: [{ id: 'a', name: 'A', colour: 'red' }] }, 'institutions'],
    [
      'institutions',
      { institutions: [{ id: 'a', name: 'A', available: 'no' as never }] },
      'institutions',
    ],
    ['unavailableInstitutions', { unavailableInstitutions: ['nope'] }, 'unavailableInstitutions'],
    [
      'unavailableInstitutions',
      { unavailableInstitutions: 'santander' as never },
      'unavailableInstitutions',
    ],
    [
      'unavailableInstitutions',
      {
        institutions: [{ id: 'a', name: 'A' }],
        unavailableInstitutions: ['santander'],
      },
      'unavailableInstitutions',
    ],
    ['retry', { retry: { factor: 0.5 } }, 'retry.factor'],
    ['retry', { retry: { maxAttempts: 0 } }, 'retry.maxAttempts'],
    ['retry', { retry: { timeoutMs: 0 } }, 'retry.timeoutMs'],
    ['merchantName', { merchantName: '  ' }, 'merchantName'],
    ['merchantName', { merchantName: 'x'.repeat(101) }, 'merchantName'],
    ['applications', { applications: [] as never }, 'applications'],
    ['applications', { applications: { 'shop-1': { merchantName: 'A' } } }, 'applications'],
    [
      'applications',
      { applications: { '5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90': {} as never } },
      'applications["5e4d8a52-7c1b-4f0e-9a3d-2b6c1e8f4a90"].merchantName',
    ],
    ['publicUrl', { publicUrl: 'sandbox.example.test' }, 'publicUrl'],
    ['publicUrl', { publicUrl: 'https://sandbox.example.test/servicepay' }, 'publicUrl'],
  ])('refuses an invalid %s before listening', async (_, options, option) => {
    const start = startSandbox({ port: 0, ...options });
    await expect(start).rejects.toBeInstanceOf(SandboxConfigError);
    await expect(start).rejects.toMatchObject({ option });
  });

  it('names the option and the ids it may hold when unavailableInstitutions has an unknown id', async () => {
    const start = startSandbox({ port: 0, unavailableInstitutions: ['santander', 'nope'] });
    await expect(start).rejects.toThrow(
      'servicepay: sandbox option unavailableInstitutions names "nope", which is not a listed institution; the ids are barclays, hsbc,',
    );
  });

  it('accepts an app scheme as mobile callback', async () => {
    const sandbox = await startSandbox({ port: 0, mobileCallbackUrl: 'myshop://paid' });
    await sandbox.stop();
  });
});
