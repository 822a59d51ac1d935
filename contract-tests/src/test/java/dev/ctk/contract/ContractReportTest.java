package dev.ctk.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContractReportTest {

  private static final String REAL = "kube-apiserver v1.20.2 (local binaries)";

  private final Scenario same = Scenario.named("writes", "same").body((t, o) -> { });
  private final Scenario known = Scenario.named("defaulting", "known")
      .knownDifference("suspend", "field added after kube 1.20").body((t, o) -> { });
  private final Scenario broken = Scenario.named("reads", "broken")
      .knownDifference("data.*", "never mind").body((t, o) -> { });

  @Test
  void should_print_one_fidelity_line_then_each_difference() {
    ContractReport report = reportWithThreeScenarios();

    assertThat(report.lines()).containsExactly(
        "ctk contract: 1 of 3 scenarios match between the fake and kube-apiserver v1.20.2 (1 known differences, "
            + "1 mismatches)",
        "  known difference: defaulting: known | suspend: fake false | kube-apiserver v1.20.2 <absent> | field "
            + "added after kube 1.20",
        "  MISMATCH: reads: broken | code: fake 410 Expired | kube-apiserver v1.20.2 400 BadRequest",
        "  known difference: reads: broken | data.k: fake v | kube-apiserver v1.20.2 w | never mind");
  }

  @Test
  void should_say_fidelity_is_not_measured_without_a_real_server() {
    ContractReport report = new ContractReport();
    report.fake(same, "ok");
    report.unavailable("kube-apiserver (local binaries)", "kube-apiserver not found.\nLooked in: PATH.");

    assertThat(report.lines()).containsExactly(
        "ctk contract: fidelity not measured: no real kube-apiserver (kube-apiserver not found. Looked in: PATH.)");
  }

  @Test
  void should_write_a_markdown_table_with_every_difference(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("target/contract-report.md");

    reportWithThreeScenarios().writeMarkdown(file);

    assertThat(Files.readString(file)).contains(
        "| # | scenario | fake | " + REAL + " |\n|---|---|---|---|\n"
            + "| 1 | writes: same | ok | match |\n"
            + "| 2 | defaulting: known | ok | known difference |\n"
            + "| 3 | reads: broken | 1 unmet | **mismatch** |\n",
        "### Mismatch: reads: broken\n\n- `code`\n  - fake: `410 Expired`\n  - real: `400 BadRequest`\n");
  }

  @Test
  void should_explain_a_mismatch_and_how_to_resolve_it() {
    Comparison c = Comparison.of(broken, Map.of("code", "410 Expired"), Map.of("code", "400 BadRequest",
        "extra", "x"));

    assertThat(c.result()).isEqualTo(Comparison.Result.MISMATCH);
    assertThat(c.failureMessage(REAL)).isEqualTo("Scenario \"reads: broken\" differs between the fake and " + REAL
        + ":\n  code:\n    fake:           410 Expired\n    real:           400 BadRequest\n"
        + "  extra:\n    fake:           <not observed>\n    real:           x\n"
        + "Either the fake is wrong (fix it in fake-client), or the difference is deliberate or specific to this "
        + "kube-apiserver version: then declare it in the scenario with knownDifference(key, reason).");
  }

  private ContractReport reportWithThreeScenarios() {
    ContractReport report = new ContractReport();
    report.fake(same, "ok");
    report.fake(known, "ok");
    report.fake(broken, "1 unmet");
    report.real(REAL, "kube-apiserver v1.20.2", Comparison.of(same, values("code", "200"), values("code", "200")));
    report.real(REAL, "kube-apiserver v1.20.2", Comparison.of(known, values("suspend", "false"),
        values("suspend", "<absent>")));
    report.real(REAL, "kube-apiserver v1.20.2", Comparison.of(broken, values("code", "410 Expired", "data.k", "v"),
        values("code", "400 BadRequest", "data.k", "w")));
    return report;
  }

  private static Map<String, String> values(String... keyValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      map.put(keyValues[i], keyValues[i + 1]);
    }
    return map;
  }
}
