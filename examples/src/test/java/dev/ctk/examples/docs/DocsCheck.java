package dev.ctk.examples.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the project's markdown against the files it quotes and the files it links to, so that the docs
 * cannot drift from the code.
 *
 * <p><b>Snippets.</b> In markdown, a line {@code <!-- snippet: <repo-relative path>[#<region>] -->} directly
 * followed by a fenced code block. In the source file, a region is the lines between {@code // region:<name>}
 * and {@code // endregion:<name>} (Java), {@code <!-- region:<name> -->} and {@code <!-- endregion:<name> -->}
 * (XML), or {@code # region:<name>} and {@code # endregion:<name>} (properties, YAML). Without {@code #region}
 * the snippet is the whole file. The block must equal the region's lines, with every marker line left out and
 * the lines dedented by the region's least indentation (trailing white space is ignored).
 *
 * <p><b>Blocks.</b> A fenced block in {@value #MARKED} needs a snippet marker; a block in {@value #FREE} may
 * stand alone (commands, output, messages); any other language, or none, is refused.
 *
 * <p><b>Links.</b> Every relative link ({@code [text](path)}, {@code [text](path#anchor)}, {@code
 * [text](#anchor)}, reference definitions) must name a file or folder that exists, and an anchor must be a
 * heading of that markdown file, by GitHub's rule (lower case, punctuation dropped, spaces to hyphens, {@code
 * -1}, {@code -2} for repeats). Links with a scheme ({@code https:}, {@code mailto:}) are not checked.
 */
final class DocsCheck {

  /** Fenced languages whose blocks must be snippets. */
  static final String MARKED = "java, xml, yaml, yml, properties";

  /** Fenced languages whose blocks may stand alone. */
  static final String FREE = "bash, shell, sh, text, console";

  private static final Set<String> MARKED_LANGUAGES = Set.of(MARKED.split(", "));
  private static final Set<String> FREE_LANGUAGES = Set.of(FREE.split(", "));

  private static final Pattern SNIPPET =
      Pattern.compile("^<!--\\s*snippet:\\s*([^\\s#]+)(?:#([A-Za-z0-9._-]+))?\\s*-->\\s*$");
  private static final Pattern SNIPPET_LIKE = Pattern.compile("^\\s*<!--\\s*snippet\\b.*");
  private static final Pattern FENCE = Pattern.compile("^( {0,3})(`{3,}|~{3,})\\s*([^\\s`]*).*$");
  private static final Pattern REGION_START =
      Pattern.compile("^\\s*(?://|<!--|#)\\s*region:([A-Za-z0-9._-]+)\\s*(?:-->)?\\s*$");
  private static final Pattern REGION_END =
      Pattern.compile("^\\s*(?://|<!--|#)\\s*endregion:([A-Za-z0-9._-]+)\\s*(?:-->)?\\s*$");
  private static final Pattern INLINE_CODE = Pattern.compile("(`+)(.+?)\\1");
  private static final Pattern LINK =
      Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\[\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?([^\\s>]+)>?.*$");
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*");
  private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

  /** What a problem is about, so that each test reports its own kind. */
  enum Kind {
    /** A snippet differs from its region, or its file or region is missing or malformed. */
    SNIPPET,
    /** A fenced block that must be a snippet is not one, or a block has a language the docs do not use. */
    BLOCK,
    /** A relative link points to nothing. */
    LINK
  }

  /** One problem, already worded for the reader: {@code file:line: what, and the fix}. */
  record Problem(Kind kind, String message) {
    @Override
    public String toString() {
      return message;
    }
  }

  private final Path root;
  private final Map<Path, List<String>> anchors = new HashMap<>();

  /**
   * A check of the markdown under {@code root}.
   *
   * @param root the repository root: snippet paths are relative to it
   */
  DocsCheck(Path root) {
    this.root = root.toAbsolutePath().normalize();
  }

  /** README.md (when there is one) and docs/*.md of the root, README first, then by name. */
  List<Path> markdownFiles() {
    List<Path> files = new ArrayList<>();
    if (Files.isRegularFile(root.resolve("README.md"))) {
      files.add(root.resolve("README.md"));
    }
    Path docs = root.resolve("docs");
    if (Files.isDirectory(docs)) {
      try (Stream<Path> pages = Files.list(docs)) {
        pages.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(files::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return files;
  }

  /** Every problem of every markdown file. */
  List<Problem> checkAll() {
    List<Problem> problems = new ArrayList<>();
    for (Path file : markdownFiles()) {
      problems.addAll(check(file));
    }
    return problems;
  }

  /** Every problem of one markdown file. */
  List<Problem> check(Path markdown) {
    List<String> lines = read(markdown);
    String name = relative(markdown);
    List<Problem> problems = new ArrayList<>();
    int i = 0;
    while (i < lines.size()) {
      String line = lines.get(i);
      Matcher marker = SNIPPET.matcher(line);
      boolean isMarker = marker.matches();
      if (!isMarker && SNIPPET_LIKE.matcher(line).matches()) {
        problems.add(new Problem(Kind.SNIPPET, name + ":" + (i + 1) + ": malformed snippet marker " + quote(line)
            + ". Write <!-- snippet: <repo-relative path>[#<region>] --> on a line of its own."));
      }
      Matcher fence = FENCE.matcher(line);
      if (isMarker) {
        Matcher next = i + 1 < lines.size() ? FENCE.matcher(lines.get(i + 1)) : null;
        if (next == null || !next.matches()) {
          problems.add(new Problem(Kind.SNIPPET, name + ":" + (i + 1) + ": the snippet marker for "
              + marker.group(1) + (marker.group(2) == null ? "" : "#" + marker.group(2))
              + " is not directly followed by a fenced code block. Put the ``` line right under it."));
          i++;
          continue;
        }
        Block block = block(lines, i + 1, next, name, problems);
        problems.addAll(compare(name, block, marker.group(1), marker.group(2)));
        i = block.end + 1;
      } else if (fence.matches()) {
        Block block = block(lines, i, fence, name, problems);
        if (MARKED_LANGUAGES.contains(block.language)) {
          problems.add(new Problem(Kind.BLOCK, name + ":" + (i + 1) + ": a fenced " + block.language
              + " block without a snippet marker. Quote a region of a compiled, tested file: put"
              + " <!-- snippet: <repo-relative path>#<region> --> on the line above it."));
        } else if (!FREE_LANGUAGES.contains(block.language)) {
          problems.add(new Problem(Kind.BLOCK, name + ":" + (i + 1) + ": a fenced block in "
              + (block.language.isEmpty() ? "no language" : "language \"" + block.language + "\"")
              + ". Use one of " + MARKED + " (with a snippet marker) or " + FREE + "."));
        }
        i = block.end + 1;
      } else {
        problems.addAll(links(markdown, name, i + 1, line));
        i++;
      }
    }
    return problems;
  }

  /** A fenced block: its language, its content lines, and where it starts and ends (0-based line indexes). */
  private record Block(String language, List<String> content, int start, int end) {}

  private static Block block(List<String> lines, int start, Matcher fence, String name, List<Problem> problems) {
    int indent = fence.group(1).length();
    String opening = fence.group(2);
    String language = fence.group(3).toLowerCase(Locale.ROOT);
    List<String> content = new ArrayList<>();
    for (int j = start + 1; j < lines.size(); j++) {
      String line = lines.get(j);
      if (closes(line, opening)) {
        return new Block(language, content, start, j);
      }
      content.add(line.substring(Math.min(indent, leading(line))));
    }
    problems.add(new Problem(Kind.BLOCK, name + ":" + (start + 1) + ": a fenced block that is never closed."
        + " Close it with " + opening + "."));
    return new Block(language, content, start, lines.size() - 1);
  }

  /** Whether {@code line} closes a block opened by {@code opening}: the same character, at least as many. */
  private static boolean closes(String line, String opening) {
    String stripped = line.strip();
    return leading(line) <= 3 && stripped.length() >= opening.length()
        && stripped.chars().allMatch(c -> c == opening.charAt(0));
  }

  private List<Problem> compare(String name, Block block, String path, String region) {
    String cited = path + (region == null ? "" : "#" + region);
    Path file = root.resolve(path).normalize();
    if (!file.startsWith(root) || !Files.isRegularFile(file)) {
      return List.of(new Problem(Kind.SNIPPET, name + ":" + (block.start) + ": the snippet cites " + cited
          + ", but " + path + " does not exist. Give a path relative to the repository root."));
    }
    List<String> source = read(file);
    List<Integer> numbers = new ArrayList<>();
    List<String> quoted = new ArrayList<>();
    String problem = region == null ? wholeFile(source, numbers, quoted) : region(source, region, numbers, quoted);
    if (problem != null) {
      return List.of(new Problem(Kind.SNIPPET, name + ":" + block.start + ": the snippet cites " + cited
          + ", but " + problem));
    }
    List<String> expected = dedent(quoted);
    List<String> actual = block.content.stream().map(String::stripTrailing).toList();
    if (expected.equals(actual)) {
      return List.of();
    }
    String where = numbers.isEmpty() ? "" : " (lines " + numbers.get(0) + "-" + numbers.get(numbers.size() - 1)
        + " of that file)";
    return List.of(new Problem(Kind.SNIPPET, name + ":" + (block.start + 2) + ": the block differs from "
        + cited + where + ". Copy the region into the block: the source is the truth. Differences (- "
        + path + ", + " + name + "):\n"
        + diff(expected, numbers, path, actual, block.start + 2, name)));
  }

  private static String wholeFile(List<String> source, List<Integer> numbers, List<String> quoted) {
    for (int i = 0; i < source.size(); i++) {
      String line = source.get(i);
      if (!REGION_START.matcher(line).matches() && !REGION_END.matcher(line).matches()) {
        numbers.add(i + 1);
        quoted.add(line);
      }
    }
    return null;
  }

  private static String region(List<String> source, String region, List<Integer> numbers, List<String> quoted) {
    int start = -1;
    int end = -1;
    for (int i = 0; i < source.size(); i++) {
      Matcher open = REGION_START.matcher(source.get(i));
      Matcher close = REGION_END.matcher(source.get(i));
      if (open.matches() && open.group(1).equals(region)) {
        if (start >= 0) {
          return "region:" + region + " starts twice in that file (lines " + (start + 1) + " and " + (i + 1)
              + "). Give each region its own name.";
        }
        start = i;
      } else if (close.matches() && close.group(1).equals(region)) {
        if (start < 0) {
          return "endregion:" + region + " (line " + (i + 1) + ") comes before any region:" + region + ".";
        }
        if (end >= 0) {
          return "endregion:" + region + " appears twice in that file.";
        }
        end = i;
      }
    }
    if (start < 0) {
      return "that file has no region:" + region + ". Mark it with // region:" + region + " ... // endregion:"
          + region + " (Java), <!-- region:" + region + " --> ... <!-- endregion:" + region + " --> (XML)"
          + " or # region:" + region + " ... # endregion:" + region + " (properties, YAML).";
    }
    if (end < 0) {
      return "region:" + region + " (line " + (start + 1) + ") is never closed with endregion:" + region + ".";
    }
    for (int i = start + 1; i < end; i++) {
      String line = source.get(i);
      if (!REGION_START.matcher(line).matches() && !REGION_END.matcher(line).matches()) {
        numbers.add(i + 1);
        quoted.add(line);
      }
    }
    if (quoted.isEmpty()) {
      return "region:" + region + " (line " + (start + 1) + ") is empty.";
    }
    return null;
  }

  /** Removes the least indentation of the non-blank lines, and trailing white space. */
  static List<String> dedent(List<String> lines) {
    int least = lines.stream().filter(l -> !l.isBlank()).mapToInt(DocsCheck::leading).min().orElse(0);
    return lines.stream().map(l -> l.isBlank() ? "" : l.substring(least).stripTrailing()).toList();
  }

  private static int leading(String line) {
    int n = 0;
    while (n < line.length() && (line.charAt(n) == ' ' || line.charAt(n) == '\t')) {
      n++;
    }
    return n;
  }

  /** A line diff (longest common subsequence): {@code - } lines only in the source, {@code + } only in the doc. */
  private static String diff(List<String> expected, List<Integer> expectedNumbers, String expectedName,
      List<String> actual, int actualFirst, String actualName) {
    int n = expected.size();
    int m = actual.size();
    int[][] common = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        common[i][j] = expected.get(i).equals(actual.get(j)) ? common[i + 1][j + 1] + 1
            : Math.max(common[i + 1][j], common[i][j + 1]);
      }
    }
    StringBuilder out = new StringBuilder();
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && expected.get(i).equals(actual.get(j))) {
        i++;
        j++;
      } else if (j < m && (i == n || common[i][j + 1] >= common[i + 1][j])) {
        out.append("  + ").append(actualName).append(':').append(actualFirst + j).append(": ")
            .append(quote(actual.get(j))).append('\n');
        j++;
      } else {
        out.append("  - ").append(expectedName).append(':').append(expectedNumbers.get(i)).append(": ")
            .append(quote(expected.get(i))).append('\n');
        i++;
      }
    }
    return out.toString().stripTrailing();
  }

  private List<Problem> links(Path markdown, String name, int number, String line) {
    String text = INLINE_CODE.matcher(line).replaceAll("");
    List<String> targets = new ArrayList<>();
    Matcher link = LINK.matcher(text);
    while (link.find()) {
      targets.add(link.group(1));
    }
    Matcher reference = REFERENCE.matcher(text);
    if (reference.matches()) {
      targets.add(reference.group(1));
    }
    List<Problem> problems = new ArrayList<>();
    for (String target : targets) {
      String problem = resolve(markdown, target);
      if (problem != null) {
        problems.add(new Problem(Kind.LINK, name + ":" + number + ": the link " + target + " " + problem));
      }
    }
    return problems;
  }

  private String resolve(Path markdown, String target) {
    if (SCHEME.matcher(target).matches()) {
      return null;
    }
    int hash = target.indexOf('#');
    String path = decode(hash < 0 ? target : target.substring(0, hash));
    String anchor = hash < 0 ? null : decode(target.substring(hash + 1));
    Path file = path.isEmpty() ? markdown : markdown.getParent().resolve(path).normalize();
    if (path.startsWith("/")) {
      return "is absolute: write it relative to " + relative(markdown) + ".";
    }
    if (!file.startsWith(root)) {
      return "leaves the repository.";
    }
    if (!Files.exists(file)) {
      return "points to " + relative(file) + ", which does not exist.";
    }
    if (anchor == null) {
      return null;
    }
    if (!file.getFileName().toString().endsWith(".md") || Files.isDirectory(file)) {
      return "has an anchor on " + relative(file) + ", which is not a markdown file: drop #" + anchor + ".";
    }
    List<String> known = anchors.computeIfAbsent(file, DocsCheck::anchorsOf);
    if (known.contains(anchor)) {
      return null;
    }
    return "points to #" + anchor + ", which is no heading of " + relative(file) + ". Its anchors: "
        + String.join(", ", known) + ".";
  }

  /** The anchors GitHub makes for a markdown file's headings (and its {@code <a id>}s), in order. */
  static List<String> anchorsOf(Path markdown) {
    List<String> lines = read(markdown);
    Set<String> result = new LinkedHashSet<>();
    Map<String, Integer> seen = new HashMap<>();
    String fence = null;
    for (String line : lines) {
      Matcher f = FENCE.matcher(line);
      if (fence == null && f.matches()) {
        fence = f.group(2);
        continue;
      }
      if (fence != null) {
        if (closes(line, fence)) {
          fence = null;
        }
        continue;
      }
      Matcher html = HTML_ANCHOR.matcher(line);
      while (html.find()) {
        result.add(html.group(1));
      }
      Matcher heading = HEADING.matcher(line);
      if (heading.matches()) {
        String slug = slug(heading.group(2));
        int count = seen.merge(slug, 1, Integer::sum);
        result.add(count == 1 ? slug : slug + "-" + (count - 1));
      }
    }
    return List.copyOf(result);
  }

  /** GitHub's anchor for a heading: its text, lower case, punctuation dropped, spaces to hyphens. */
  static String slug(String heading) {
    String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("`", "").replace("*", "");
    return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
  }

  private static String decode(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && i + 2 < text.length() && text.substring(i + 1, i + 3).matches("[0-9A-Fa-f]{2}")) {
        out.append((char) Integer.parseInt(text.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  private String relative(Path file) {
    return root.relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
  }

  private static String quote(String line) {
    return "\"" + line + "\"";
  }

  private static List<String> read(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
