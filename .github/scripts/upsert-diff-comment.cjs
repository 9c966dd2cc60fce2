// Posts the rendered-diff Markdown as one pull-request comment, updating the bot's earlier one in place (used by actions/github-script).
"use strict";

/**
 * The comment's first line (`<!-- eks-gitops:rendered-diff -->`) identifies it; only a bot's comment
 * is ever edited, so a person quoting the marker is left alone.
 * @param {{ github: any, context: { repo: { owner: string, repo: string }, issue: { number: number } }, body: string }} args
 * @returns {Promise<{ action: "created" | "updated", id: number }>}
 */
module.exports = async function upsertDiffComment({ github, context, body }) {
  const marker = body.split("\n")[0];
  if (!marker.startsWith("<!--")) throw new Error(`the diff comment must start with its HTML marker, not '${marker}'`);
  const { owner, repo } = context.repo;
  const issue_number = context.issue.number;
  const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number, per_page: 100 });
  const mine = comments.find((c) => c.user && c.user.type === "Bot" && typeof c.body === "string" && c.body.startsWith(marker));
  if (mine) {
    await github.rest.issues.updateComment({ owner, repo, comment_id: mine.id, body });
    return { action: "updated", id: mine.id };
  }
  const { data } = await github.rest.issues.createComment({ owner, repo, issue_number, body });
  return { action: "created", id: data.id };
};
