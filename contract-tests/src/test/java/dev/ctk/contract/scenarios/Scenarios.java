package dev.ctk.contract.scenarios;

import dev.ctk.contract.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * Every scenario of the contract suite, by area, in the order they run.
 */
public final class Scenarios {

  private Scenarios() {
  }

  /**
   * All scenarios.
   *
   * @return the scenarios
   */
  public static List<Scenario> all() {
    List<Scenario> all = new ArrayList<>();
    all.addAll(WriteScenarios.all());
    all.addAll(ValidationScenarios.all());
    all.addAll(InputLimitScenarios.all());
    all.addAll(DefaultingScenarios.all());
    all.addAll(SubresourceScenarios.all());
    all.addAll(PatchScenarios.all());
    all.addAll(ApplyScenarios.all());
    all.addAll(DeletionScenarios.all());
    all.addAll(ReadScenarios.all());
    all.addAll(WatchScenarios.all());
    all.addAll(CrdScenarios.all());
    all.addAll(CelScenarios.all());
    all.addAll(DiscoveryScenarios.all());
    all.addAll(EventScenarios.all());
    return List.copyOf(all);
  }
}
