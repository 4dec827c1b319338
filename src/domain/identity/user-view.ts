import type { User } from './user-repository.ts';

/** How a user is shown (the CLI, the console): never the password hash. */
export function toUserView(user: User) {
  return {
    userId: user.id,
    email: user.email,
    role: user.role,
    displayName: user.displayName,
    enabled: user.enabled,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

export type UserView = ReturnType<typeof toUserView>;
