import type { Page } from 'playwright-core';

/** The demo web app as a person uses it: through its visible labels and buttons. */
export class DemoPage {
  constructor(
    readonly page: Page,
    private readonly baseUrl: string,
  ) {}

  /** A fresh start: the app's address with nothing stored from an earlier session. */
  async open(): Promise<void> {
    await this.page.goto(`${this.baseUrl}/`);
    await this.page.evaluate(() => window.localStorage.clear());
    await this.page.reload();
    await this.page.getByRole('heading', { name: 'Demo logins' }).waitFor();
  }

  /** Picks the listed demo login, which fills in the form, and signs in. */
  async signInAs(email: string): Promise<void> {
    await this.page.getByRole('button', { name: new RegExp(`^${email.replace(/[.]/g, '\\.')}`) }).click();
    await this.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await this.page.getByTestId('signed-in-user').waitFor();
  }

  /** The posts table once it has loaded. */
  async postsTable() {
    const table = this.page.getByRole('table', { name: 'Posts' });
    await table.waitFor();
    return table;
  }

  async openPost(title: string): Promise<void> {
    await (await this.postsTable()).getByRole('link', { name: title, exact: true }).click();
    await this.page.getByRole('heading', { level: 1, name: title }).waitFor();
  }
}
