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
  void should_print_the_transport_parity_line_then_one_fidelity_line_then_each_difference() {
    ContractReport report = reportWithThreeScenarios();

    assertThat(report.lines()).containsExactly(
        "ctk contract: 2 of 3 scenarios observed equal on the fake's http and in-process transports (1 differ)",
        "  TRANSPORT DIFFERENCE: reads: broken | data.k: http v | in-process <not observed>",
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
        "| # | scenario | fake (http) | fake (in-process) | " + REAL + " |\n|---|---|---|---|---|\n"
            + "| 1 | writes: same | ok | ok, equal to http | match |\n"
            + "| 2 | defaulting: known | ok | ok, equal to http | known difference |\n"
            + "| 3 | reads: broken | 1 unmet | 1 unmet, **1 value differs from http** | **mismatch** |\n",
        "## Differences between the fake's http and in-process transports\n\n### reads: broken\n\n- `data.k`\n"
            + "  - http: `v`\n  - in-process: `<not observed>`\n",
        "### Mismatch: reads: broken\n\n- `code`\n  - fake: `410 Expired`\n  - real: `400 BadRequest`\n");
  }

  @Test
  void should_list_a_scenario_skipped_on_a_real_server_after_its_fidelity_line(@TempDir Path dir) throws Exception {
    Scenario collected = Scenario.named("deletion", "collected").needsClusterControllers().body((t, o) -> { });
    ContractReport report = new ContractReport();
    report.fake(same, "ok");
    report.fake(collected, "ok");
    report.real(REAL, "kube-apiserver v1.20.2", Comparison.of(same, values("code", "200"), values("code", "200")));
    report.skipped(REAL, collected, REAL + " runs no kube-controller-manager");
    Path file = dir.resolve("contract-report.md");

    report.writeMarkdown(file);

    assertThat(report.lines()).containsExactly(
        "ctk contract: 1 of 1 scenarios match between the fake and kube-apiserver v1.20.2 (0 known differences, "
            + "0 mismatches)",
        "  skipped: deletion: collected | " + REAL + " runs no kube-controller-manager");
    assertThat(Files.readString(file)).contains("| 2 | deletion: collected | ok | not run | skipped |\n");
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

  @Test
  void should_list_each_value_that_differs_between_the_transports_and_how_to_resolve_it() {
    TransportParity parity = TransportParity.of(broken, values("code", "410 Expired", "data.k", "v"),
        values("code", "400 BadRequest", "extra", "x"));

    assertThat(parity.equal()).isFalse();
    assertThat(parity.failureMessage()).isEqualTo("Scenario \"reads: broken\" observed 3 different value(s) on the "
        + "fake's two client transports, which must show the same:\n"
        + "  code:\n    http:           410 Expired\n    in-process:     400 BadRequest\n"
        + "  data.k:\n    http:           v\n    in-process:     <not observed>\n"
        + "  extra:\n    http:           <not observed>\n    in-process:     x\n"
        + "The in-process transport must answer exactly as HTTP does (same fake, same request): fix the transport in "
        + "fake-client (dev.ctk.fake.internal); known differences do not apply between transports.");
  }

  @Test
  void should_count_equal_observations_even_where_the_scenario_declares_known_differences() {
    ContractReport report = new ContractReport();
    report.fake(broken, "ok");
    report.fakeInProcess(broken, "ok", TransportParity.of(broken, values("data.k", "v"), values("data.k", "v")));
    report.unavailable("kube-apiserver (local binaries)", "kube-apiserver not found.");

    assertThat(report.lines()).containsExactly(
        "ctk contract: 1 of 1 scenarios observed equal on the fake's http and in-process transports (0 differ)",
        "ctk contract: fidelity not measured: no real kube-apiserver (kube-apiserver not found.)");
  }

  private ContractReport reportWithThreeScenarios() {
    ContractReport report = new ContractReport();
    report.fake(same, "ok");
    report.fake(known, "ok");
    report.fake(broken, "1 unmet");
    report.fakeInProcess(same, "ok", TransportParity.of(same, values("code", "200"), values("code", "200")));
    report.fakeInProcess(known, "ok", TransportParity.of(known, values("suspend", "false"),
        values("suspend", "false")));
    report.fakeInProcess(broken, "1 unmet", TransportParity.of(broken, values("code", "410 Expired", "data.k", "v"),
        values("code", "410 Expired")));
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
