package shop.plus.service;

import java.util.List;
import shop.plus.mapper.MybatisPlusTaskMapper;
import shop.plus.model.MybatisPlusTaskDO;

// lock_mark is a state by use only: the entities that set it are built
// with Lombok's builder or changed inside loops and lambdas.
public class MybatisPlusTaskService {
    private MybatisPlusTaskMapper taskMapper;

    public void take(Long id, String owner) {
        MybatisPlusTaskDO t = taskMapper.selectById(id);
        if (t.getLockMark() != 0) {
            throw new IllegalStateException("taken");
        }
        taskMapper.updateById(MybatisPlusTaskDO.builder().id(id).lockMark(1).owner(owner).build()); // want "GQ005 state column t_job.lock_mark is set to 1 and written by .*MybatisPlusTaskMapper.updateById after t read by selectById at line 13"
    }

    public void finish(Long id) {
        MybatisPlusTaskDO t = taskMapper.selectById(id);
        if (t.getLockMark() != 1) {
            throw new IllegalStateException("not taken");
        }
        MybatisPlusTaskDO done = MybatisPlusTaskDO.builder().id(id).lockMark(2).build();
        taskMapper.updateById(done); // want "GQ005 state column t_job.lock_mark is set to 2 .* after t read by selectById at line 21"
    }

    public void releaseAll(List<MybatisPlusTaskDO> tasks) {
        tasks.forEach(t -> {
            if (t.getLockMark() == 1) {
                t.setLockMark(0);
                taskMapper.updateById(t); // want "GQ005 state column t_job.lock_mark is set to 0 .* after the code tested t's lock_mark"
            }
        });
    }

    public void resetDone(List<MybatisPlusTaskDO> tasks) {
        for (MybatisPlusTaskDO t : tasks) {
            if (t.getLockMark() == 2) {
                t.setLockMark(0);
                taskMapper.updateById(t); // want "GQ005 state column t_job.lock_mark is set to 0 .* after the code tested t's lock_mark"
            }
        }
    }

    // Safe twins: an edit form built from what the caller sent, a default
    // filled in where none was given, and notes written in a loop.
    public void edit(MybatisPlusTaskDO form) {
        taskMapper.updateById(MybatisPlusTaskDO.builder().id(form.getId()).owner(form.getOwner()).note(form.getNote()).build());
    }

    public void normalise(List<MybatisPlusTaskDO> tasks) {
        tasks.forEach(t -> {
            if (t.getLockMark() == null) {
                t.setLockMark(0);
            }
            taskMapper.updateById(t);
        });
    }

    public void annotate(List<MybatisPlusTaskDO> tasks, String note) {
        for (MybatisPlusTaskDO t : tasks) {
            t.setNote(note);
            taskMapper.updateById(t);
        }
    }
}
