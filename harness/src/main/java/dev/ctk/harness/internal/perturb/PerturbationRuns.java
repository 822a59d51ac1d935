package dev.ctk.harness.internal.perturb;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the perturbed runs of a campaign leave what they found for the reference run that started them: a static
 * registry keyed by campaign id (the nested launcher runs them in this JVM, on the reference run's thread). A campaign
 * {@link #open opens} its entry, each perturbed run {@link #put puts} its record, the campaign {@link #take takes}
 * each and {@link #close closes} the entry at the end, so nothing outlives the campaign.
 */
public final class PerturbationRuns {

  private static final Map<String, Map<String, Run>> CAMPAIGNS = new ConcurrentHashMap<>();

  private PerturbationRuns() {}

  /**
   * What one perturbed run recorded in its afterEach, while its cluster was still open.
   *
   * @param pointId the point it ran
   * @param fired whether the point took effect in the run
   * @param notFiredReason why it did not ({@code PerturbationTracker.notFiredReason()}), {@code null} when it did
   * @param injections what the perturbation did, each {@code HH:mm:ss.SSS <what>}
   * @param endState the end state after settling; {@code null} when the test failed or it could not be read
   * @param converged whether the controllers went idle within the settle bound
   * @param activity the controllers' reconcile counts and queues when they did not, else {@code null}
   * @param captureFailure why the end state could not be read, else {@code null}
   * @param timeline the run's writes and held, released and dropped watch events, with the injections
   */
  public record Run(String pointId, boolean fired, String notFiredReason, List<String> injections, EndState endState,
      boolean converged, String activity, String captureFailure, List<TimelineLine> timeline) {

    public Run {
      if (!fired && notFiredReason == null) {
        notFiredReason = "the run never got to this point";
      }
      notFiredReason = fired ? null : notFiredReason;
      injections = List.copyOf(injections);
      timeline = List.copyOf(timeline);
    }
  }

  /**
   * One line of a perturbed run's timeline.
   *
   * @param time {@code HH:mm:ss.SSS}
   * @param text what happened
   * @param object the object it is about ({@code ConfigMap default/web}), or {@code null} for an injection
   */
  public record TimelineLine(String time, String text, String object) {}

  /** Opens a campaign; returns its id. */
  public static String open() {
    String id = UUID.randomUUID().toString();
    CAMPAIGNS.put(id, new ConcurrentHashMap<>());
    return id;
  }

  /** Records a perturbed run of an open campaign; a run of a campaign that is not open is ignored. */
  public static void put(String campaign, Run run) {
    Map<String, Run> runs = CAMPAIGNS.get(campaign);
    if (runs != null) {
      runs.put(run.pointId(), run);
    }
  }

  /** Takes the record of a run, or {@code null} if the run recorded none. */
  public static Run take(String campaign, String pointId) {
    Map<String, Run> runs = CAMPAIGNS.get(campaign);
    return runs == null ? null : runs.remove(pointId);
  }

  /** Forgets a campaign. */
  public static void close(String campaign) {
    CAMPAIGNS.remove(campaign);
  }
}
