import { useAuth } from '@gatehouse/client';
import { useState, type FormEvent } from 'react';
import { DEMO_PASSWORD, DEMO_USERS } from '../../../policies/demo-accounts.js';
import { ADMIN_GROUP, DEFAULT_GROUP } from '../groups.js';

export function SignInPage() {
  const { login } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [group, setGroup] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const result = await login(email, password, { routeGroup: group });
    setBusy(false);
    if (!result.success) setError(result.error ?? 'Sign-in failed.');
  };

  return (
    <div className="sign-in">
      <section className="card sign-in-card">
        <h1>
          <span className="brand-mark">G</span> Gatehouse demo
        </h1>
        <p className="muted">Sign in to see what each role may do with the same posts.</p>
        <form onSubmit={(event) => void submit(event)} className="form">
          <label>
            Email
            <input type="email" name="email" autoComplete="username" required value={email} onChange={(event) => setEmail(event.target.value)} />
          </label>
          <label>
            Password
            <input type="password" name="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
          </label>
          <label>
            Sign in to
            <select name="group" value={group ?? ''} onChange={(event) => setGroup(event.target.value || null)}>
              <option value="">Organizations (default group)</option>
              <option value={ADMIN_GROUP}>Administration (admin group)</option>
            </select>
          </label>
          {error && (
            <div className="notice notice-error" role="alert">
              {error}
            </div>
          )}
          <button type="submit" className="button button-primary" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </section>
      <section className="card demo-logins">
        <h2>Demo logins</h2>
        <p className="muted">
          Every password is <code>{DEMO_PASSWORD}</code>. Pick one to fill in the form.
        </p>
        <ul>
          {DEMO_USERS.map((user) => (
            <li key={user.email}>
              <button
                type="button"
                className="demo-login"
                onClick={() => {
                  setEmail(user.email);
                  setPassword(DEMO_PASSWORD);
                  setGroup(user.routeGroup === DEFAULT_GROUP ? null : user.routeGroup);
                }}
              >
                <span className="demo-email">{user.email}</span>
                <span className="muted">
                  {user.role} · {user.organization ?? `${user.routeGroup} group`}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
