package dev.ctk.contract;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects the outcome of every scenario on every target and reports the transport parity, {@code ctk contract: N
 * of M scenarios observed equal on the fake's http and in-process transports (D differ)}, with one line per
 * differing value; then the fidelity: one line per real server, {@code ctk contract: N of M scenarios match between
 * the fake and kube-apiserver vX.Y.Z (K known differences, F mismatches)}, followed by one line per known difference
 * and per mismatch; and a Markdown table in {@code target/contract-report.md}.
 *
 * <pre>{@code
 * report.fake(scenario, "ok");
 * report.fakeInProcess(scenario, "ok", TransportParity.of(scenario, httpValues, inProcessValues));
 * report.real("kube-apiserver v1.20.2 (local binaries)", "kube-apiserver v1.20.2", comparison);
 * report.print(System.out);
 * }</pre>
 */
final class ContractReport {

  private static final int CONSOLE_VALUE_LIMIT = 240;

  private final Map<Scenario, String> fakeOutcomes = new LinkedHashMap<>();
  private final Map<Scenario, String> inProcessOutcomes = new LinkedHashMap<>();
  private final Map<Scenario, TransportParity> parities = new LinkedHashMap<>();
  private final Map<String, ServerResults> servers = new LinkedHashMap<>();

  private static final class ServerResults {
    String fidelityName;
    String fakeMinor;
    String unavailableReason;
    final Map<Scenario, Comparison> comparisons = new LinkedHashMap<>();
    final Map<Scenario, String> skipped = new LinkedHashMap<>();
  }

  /** Records the fake's run over HTTP: {@code ok}, or what it got wrong. */
  synchronized void fake(Scenario scenario, String outcome) {
    fakeOutcomes.put(scenario, outcome);
  }

  /**
   * Records the fake's run over its in-process transport.
   *
   * @param scenario the scenario
   * @param outcome {@code ok}, or what it got wrong
   * @param parity its observation against the HTTP run's
   */
  synchronized void fakeInProcess(Scenario scenario, String outcome, TransportParity parity) {
    fakeOutcomes.putIfAbsent(scenario, "not run");
    inProcessOutcomes.put(scenario, outcome);
    parities.put(scenario, parity);
  }

  /**
   * Records a comparison with a real server.
   *
   * @param server the server's display name, e.g. {@code kube-apiserver v1.20.2 (local binaries)}
   * @param fidelityName how the fidelity line names it, e.g. {@code kube-apiserver v1.20.2}
   * @param comparison the comparison
   */
  synchronized void real(String server, String fidelityName, Comparison comparison) {
    real(server, fidelityName, null, comparison);
  }

  /**
   * Records a comparison with a real server, with the minor the fake emulated for it.
   *
   * @param server the server's display name, e.g. {@code kube-apiserver v1.37.2 (local binaries)}
   * @param fidelityName how the fidelity line names it, e.g. {@code kube-apiserver v1.37.2}
   * @param fakeMinor the minor the fake emulated, e.g. {@code 1.37}; {@code null} to leave it out of the line
   * @param comparison the comparison
   */
  synchronized void real(String server, String fidelityName, String fakeMinor, Comparison comparison) {
    ServerResults results = servers.computeIfAbsent(server, k -> new ServerResults());
    results.fidelityName = fidelityName;
    results.fakeMinor = fakeMinor;
    results.comparisons.put(comparison.scenario(), comparison);
  }

  /**
   * Records that a scenario did not run on a real server, and why (it needs controllers the server does not run).
   *
   * @param server the server's display name
   * @param scenario the scenario
   * @param reason why
   */
  synchronized void skipped(String server, Scenario scenario, String reason) {
    servers.computeIfAbsent(server, k -> new ServerResults()).skipped.put(scenario, reason);
  }

  /** Records that a real server was asked for and could not be had. */
  synchronized void unavailable(String server, String reason) {
    servers.computeIfAbsent(server, k -> new ServerResults()).unavailableReason = reason;
  }

  /**
   * The lines for CI output: the transport parity line (when an in-process run was recorded) and each value that
   * differs between the transports; then a fidelity line per real server, its known differences and mismatches.
   */
  synchronized List<String> lines() {
    List<String> lines = new ArrayList<>();
    if (!parities.isEmpty()) {
      long equal = parities.values().stream().filter(TransportParity::equal).count();
      lines.add("ctk contract: " + equal + " of " + parities.size() + " scenarios observed equal on the fake's http "
          + "and in-process transports (" + (parities.size() - equal) + " differ)");
      for (TransportParity p : parities.values()) {
        for (Comparison.Difference d : p.differences()) {
          lines.add("  TRANSPORT DIFFERENCE: " + p.scenario().displayName() + " | " + d.key() + ": http "
              + clip(d.fake()) + " | in-process " + clip(d.real()));
        }
      }
    }
    if (servers.values().stream().allMatch(r -> r.comparisons.isEmpty())) {
      String reason = servers.values().stream().map(r -> r.unavailableReason).filter(r -> r != null).findFirst()
          .orElse(servers.isEmpty() ? "none was asked for" : "no scenario ran against one");
      lines.add("ctk contract: fidelity not measured: no real kube-apiserver (" + oneLine(reason) + ")");
      return lines;
    }
    servers.forEach((server, results) -> {
      if (results.comparisons.isEmpty()) {
        lines.add("ctk contract: fidelity not measured against " + server + " ("
            + oneLine(results.unavailableReason == null ? "no scenario ran" : results.unavailableReason) + ")");
        return;
      }
      long match = count(results, Comparison.Result.MATCH);
      long known = count(results, Comparison.Result.KNOWN_DIFFERENCE);
      long mismatch = count(results, Comparison.Result.MISMATCH);
      lines.add("ctk contract: " + match + " of " + results.comparisons.size() + " scenarios match between the fake "
          + (results.fakeMinor == null ? "" : "emulating " + results.fakeMinor + " ") + "and " + results.fidelityName + " (" + known + " known differences, " + mismatch + " mismatches)");
      for (Comparison c : results.comparisons.values()) {
        for (Comparison.Difference d : c.differences()) {
          lines.add("  " + (d.known() ? "known difference" : "MISMATCH") + ": " + c.scenario().displayName() + " | "
              + d.key() + ": fake " + clip(d.fake()) + " | " + results.fidelityName + " " + clip(d.real())
              + (d.known() ? " | " + d.knownReason() : ""));
        }
      }
      results.skipped.forEach((scenario, reason) -> lines.add("  skipped: " + scenario.displayName() + " | "
          + oneLine(reason)));
    });
    return lines;
  }

  /** Prints {@link #lines()}. */
  void print(PrintStream out) {
    lines().forEach(out::println);
    out.flush();
  }

  /**
   * Writes the Markdown report: the parity and fidelity lines, a table scenario x target (the in-process column
   * says whether its observation equals the HTTP run's), then every difference in full.
   */
  synchronized void writeMarkdown(Path file) {
    StringBuilder md = new StringBuilder("# ctk contract report\n\n");
    md.append("Every scenario runs on ctk's fake API server through both client transports, http and in-process "
        + "(asserting kube's answers, and that both transports observe the same values), and on each real "
        + "kube-apiserver available, whose observation is compared value by value with the http fake's.\n\n");
    lines().stream().filter(l -> l.startsWith("ctk contract:")).forEach(l -> md.append("    ").append(l)
        .append('\n'));
    md.append("\n| # | scenario | fake (http) | fake (in-process) |");
    servers.keySet().forEach(s -> md.append(' ').append(s).append(" |"));
    md.append("\n|---|---|---|---|");
    servers.keySet().forEach(s -> md.append("---|"));
    md.append('\n');
    int i = 0;
    for (Map.Entry<Scenario, String> e : fakeOutcomes.entrySet()) {
      md.append("| ").append(++i).append(" | ").append(cell(e.getKey().displayName())).append(" | ")
          .append(cell(e.getValue())).append(" | ").append(inProcessCell(e.getKey())).append(" |");
      for (ServerResults results : servers.values()) {
        Comparison c = results.comparisons.get(e.getKey());
        md.append(' ').append(c == null ? (results.skipped.containsKey(e.getKey()) ? "skipped" : "not run")
            : switch (c.result()) {
          case MATCH -> "match";
          case KNOWN_DIFFERENCE -> "known difference";
          case MISMATCH -> "**mismatch**";
        }).append(" |");
      }
      md.append('\n');
    }
    List<TransportParity> unequal = parities.values().stream().filter(p -> !p.equal()).toList();
    if (!unequal.isEmpty()) {
      md.append("\n## Differences between the fake's http and in-process transports\n");
      for (TransportParity p : unequal) {
        md.append("\n### ").append(p.scenario().displayName()).append('\n');
        for (Comparison.Difference d : p.differences()) {
          md.append("\n- `").append(d.key()).append("`")
              .append("\n  - http: `").append(d.fake().replace('`', '\'')).append("`")
              .append("\n  - in-process: `").append(d.real().replace('`', '\'')).append("`\n");
        }
      }
    }
    servers.forEach((server, results) -> {
      List<Comparison> different = results.comparisons.values().stream()
          .filter(c -> c.result() != Comparison.Result.MATCH).toList();
      if (different.isEmpty()) {
        return;
      }
      md.append("\n## Differences with ").append(server).append("\n");
      for (Comparison c : different) {
        md.append("\n### ").append(c.result() == Comparison.Result.MISMATCH ? "Mismatch" : "Known difference")
            .append(": ").append(c.scenario().displayName()).append('\n');
        for (Comparison.Difference d : c.differences()) {
          md.append("\n- `").append(d.key()).append("`").append(d.known() ? ": " + d.knownReason() : "")
              .append("\n  - fake: `").append(d.fake().replace('`', '\'')).append("`")
              .append("\n  - real: `").append(d.real().replace('`', '\'')).append("`\n");
        }
      }
    });
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, md.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the contract report " + file.toAbsolutePath(), e);
    }
  }

  private String inProcessCell(Scenario scenario) {
    String outcome = inProcessOutcomes.get(scenario);
    TransportParity parity = parities.get(scenario);
    if (outcome == null || parity == null) {
      return "not run";
    }
    int n = parity.differences().size();
    return cell(outcome) + (parity.equal() ? ", equal to http"
        : ", **" + n + (n == 1 ? " value differs" : " values differ") + " from http**");
  }

  private static long count(ServerResults results, Comparison.Result result) {
    return results.comparisons.values().stream().filter(c -> c.result() == result).count();
  }

  private static String oneLine(String text) {
    return text.strip().replaceAll("\\s*\\R\\s*", " ");
  }

  private static String clip(String value) {
    String line = oneLine(value);
    return line.length() <= CONSOLE_VALUE_LIMIT ? line : line.substring(0, CONSOLE_VALUE_LIMIT) + "...";
  }

  private static String cell(String text) {
    return oneLine(text).replace("|", "\\|");
  }
}
