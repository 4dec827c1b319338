import { Type } from '@sinclair/typebox';
import { toKeyLifetimes } from '../../domain/keys/key-lifetimes.ts';
import { rotateSigningKeys } from '../../domain/keys/rotate-signing-keys.ts';
import type { RouteRegistrar } from '../route-context.ts';

const purposes = { all: ['token', 'link'], token: ['token'], link: ['link'] } as const;

/** POST /console/api/keys/rotate {purpose, retireOld?}: as `coffer keys rotate`. */
export const rotateKeys: RouteRegistrar = (app, services) => {
  app.post(
    '/keys/rotate',
    {
      schema: {
        hide: true,
        body: Type.Object(
          {
            purpose: Type.Union([Type.Literal('all'), Type.Literal('token'), Type.Literal('link')]),
            retireOld: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (request) => {
      const rotated = await rotateSigningKeys(services.repositories.signingKeys, {
        purposes: [...purposes[request.body.purpose]],
        retireOld: request.body.retireOld ?? false,
        clock: services.clock,
        lifetimes: toKeyLifetimes(services.config),
      });
      return { rotated: rotated.map((key) => ({ ...key, signsFrom: key.signsFrom.toISOString() })) };
    },
  );
};
