/**
 * The docs' own examples and the check that keeps README.md and docs/*.md true.
 *
 * <p>{@link dev.ctk.examples.docs.DocsSnippetsTest} fails when a code block of the docs is not the region of a
 * source file it cites, when a {@code java}, {@code xml}, {@code yaml} or {@code properties} block cites nothing,
 * or when a relative link points to nothing. The other classes here are snippets with no other home, each a test
 * that asserts what the docs say of it; the {@code .xml}, {@code .properties} and {@code .txt} files beside them
 * are quoted whole and read by those tests.
 *
 * <p>What it does not do: it checks that a snippet is the code it cites, not that the prose around it is right;
 * {@code text}, {@code bash} and {@code console} blocks without a marker (commands, sample output) are not checked;
 * links with a scheme ({@code https:}) are not followed; and anchors are computed by GitHub's rule for headings
 * only, so an anchor made by other markup must be an {@code <a id>}.
 */
package dev.ctk.examples.docs;
