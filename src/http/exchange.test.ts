// compose: each stage runs around the ones after it, may answer without them, and may not run them twice.
import { describe, expect, it } from 'vitest';
import { compose, type Exchange, type Stage } from './exchange.ts';

const x = {} as Exchange;

describe('compose', () => {
  it('runs each stage around the ones after it, in order', async () => {
    const seen: string[] = [];
    const stage =
      (name: string): Stage =>
      async (_x, next) => {
        seen.push(`${name} in`);
        await next();
        seen.push(`${name} out`);
      };
    await compose([stage('a'), stage('b'), stage('c')])(x);
    expect(seen).toEqual(['a in', 'b in', 'c in', 'c out', 'b out', 'a out']);
  });

  it('lets a stage answer without the stages after it', async () => {
    const seen: string[] = [];
    const answer: Stage = async () => {
      seen.push('answered');
    };
    const after: Stage = async () => {
      seen.push('after');
    };
    await compose([answer, after])(x);
    expect(seen).toEqual(['answered']);
  });

  it('refuses to run the stages after one twice (a write would be made twice)', async () => {
    let handled = 0;
    const twice: Stage = async (_x, next) => {
      await next();
      await next();
    };
    const handle: Stage = async () => {
      handled++;
    };
    await expect(compose([twice, handle])(x)).rejects.toThrow('next() called twice');
    expect(handled).toBe(1);
  });
});
