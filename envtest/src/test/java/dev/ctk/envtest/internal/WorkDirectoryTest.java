package dev.ctk.envtest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The work folder of a local server: private, and removed after a JVM killed with SIGKILL. */
class WorkDirectoryTest {

  @Test
  void reaps_the_folders_of_a_dead_process_and_keeps_the_living_ones(@TempDir Path tmp) throws Exception {
    // GIVEN a folder owned by a process that has exited, one owned by this JVM, one without owner file
    Process dead = new ProcessBuilder("true").start();
    String deadOwner = WorkDirectory.owner(dead.toHandle());
    assertThat(dead.waitFor(10, TimeUnit.SECONDS)).isTrue();
    Path orphan = folder(tmp, "ctk-envtest-1", deadOwner);
    Files.writeString(orphan.resolve("tokens.csv"), "secret,admin,admin,system:masters");
    Path living = folder(tmp, "ctk-envtest-2", WorkDirectory.owner(ProcessHandle.current()));
    Path legacy = Files.createDirectory(tmp.resolve("ctk-envtest-3"));
    Path other = Files.createDirectory(tmp.resolve("not-ours"));
    // WHEN
    int removed = WorkDirectory.reapOrphans(tmp);
    // THEN
    assertThat(removed).isEqualTo(1);
    assertThat(orphan).doesNotExist();
    assertThat(living).isDirectory();
    assertThat(legacy).isDirectory();
    assertThat(other).isDirectory();
  }

  @Test
  void a_recycled_process_id_is_not_the_owner() {
    // GIVEN this JVM's pid with another start time
    String recycled = ProcessHandle.current().pid() + " 2001-01-01T00:00:00Z";
    // WHEN / THEN
    assertThat(WorkDirectory.ownerAlive(recycled)).isFalse();
    assertThat(WorkDirectory.ownerAlive(WorkDirectory.owner(ProcessHandle.current()))).isTrue();
    assertThat(WorkDirectory.ownerAlive("not-a-pid")).isTrue();
  }

  @Test
  void a_new_folder_is_private_and_names_its_owner() throws IOException {
    WorkDirectory work = WorkDirectory.create();
    try {
      assertThat(Files.readString(work.path().resolve(WorkDirectory.OWNER_FILE)))
          .isEqualTo(WorkDirectory.owner(ProcessHandle.current()));
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(work.path()))).isEqualTo("rwx------");
    } finally {
      assertThat(work.delete()).isTrue();
    }
  }

  private static Path folder(Path parent, String name, String owner) throws IOException {
    Path folder = Files.createDirectory(parent.resolve(name));
    Files.writeString(folder.resolve(WorkDirectory.OWNER_FILE), owner);
    return folder;
  }
}
