package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/hookcore/hookcore/hook"
	"github.com/hookcore/hookcore/tool"
)

// Task is an entry of the session's task list (the TaskCreate and TaskUpdate tools).
type Task struct {
	ID          string `json:"id"`
	Subject     string `json:"subject"`
	Description string `json:"description,omitempty"`
	Status      string `json:"status"` // pending, in_progress, completed
}

type taskList struct {
	mu    sync.Mutex
	n     int
	tasks []*Task
}

type sessionKey struct{}

func sessionFrom(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

// Tasks returns a copy of the session's task list.
func (s *Session) Tasks() []Task {
	s.tasks.mu.Lock()
	defer s.tasks.mu.Unlock()
	out := make([]Task, len(s.tasks.tasks))
	for i, t := range s.tasks.tasks {
		out[i] = *t
	}
	return out
}

type taskCreateTool struct{ list *taskList }

func (taskCreateTool) Name() string { return "TaskCreate" }
func (taskCreateTool) Description() string {
	return "Create a task in the session's task list. Returns the task with its id."
}
func (taskCreateTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"subject":{"type":"string","description":"a short title"},"description":{"type":"string"}},"required":["subject"]}`)
}
func (taskCreateTool) NeedsApproval(json.RawMessage) bool { return false }

// Run creates the task, then reports TaskCreated; a block deletes it again (codebot: the
// task_create tool rolls back) and the reason goes to the model.
func (t taskCreateTool) Run(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	var in struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	}
	if err := hook.DecodeToolInput(input, &in); err != nil || in.Subject == "" {
		return nil, fmt.Errorf("TaskCreate needs a subject")
	}
	t.list.mu.Lock()
	t.list.n++
	task := &Task{ID: fmt.Sprint(t.list.n), Subject: in.Subject, Description: in.Description, Status: "pending"}
	t.list.tasks = append(t.list.tasks, task)
	snapshot := *task
	t.list.mu.Unlock()
	if s := sessionFrom(ctx); s != nil {
		call := tool.Call{Name: t.Name(), Input: input}
		if v := s.observe(ctx, &Event{Moment: hook.TaskCreated, Call: &call, Task: &snapshot}); v.Block {
			t.list.mu.Lock()
			for i, x := range t.list.tasks {
				if x == task {
					t.list.tasks = append(t.list.tasks[:i], t.list.tasks[i+1:]...)
					break
				}
			}
			t.list.mu.Unlock()
			return nil, &tool.RejectedError{Tool: t.Name(), Reason: v.Reason}
		}
	}
	return json.Marshal(snapshot)
}

type taskUpdateTool struct{ list *taskList }

func (taskUpdateTool) Name() string { return "TaskUpdate" }
func (taskUpdateTool) Description() string {
	return "Change a task's status: pending, in_progress or completed."
}
func (taskUpdateTool) Schema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"task_id":{"type":"string"},"status":{"type":"string","enum":["pending","in_progress","completed"]}},"required":["task_id","status"]}`)
}
func (taskUpdateTool) NeedsApproval(json.RawMessage) bool { return false }

// Run changes the status; a change to completed first reports TaskCompleted, whose block
// refuses the change.
func (t taskUpdateTool) Run(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
	var in struct {
		TaskID string `json:"task_id"`
		Status string `json:"status"`
	}
	if err := hook.DecodeToolInput(input, &in); err != nil {
		return nil, fmt.Errorf("TaskUpdate: %v", err)
	}
	switch in.Status {
	case "pending", "in_progress", "completed":
	default:
		return nil, fmt.Errorf("TaskUpdate: unknown status %q", in.Status)
	}
	t.list.mu.Lock()
	var task *Task
	for _, x := range t.list.tasks {
		if x.ID == in.TaskID {
			task = x
		}
	}
	if task == nil {
		t.list.mu.Unlock()
		return nil, fmt.Errorf("TaskUpdate: no task %q", in.TaskID)
	}
	snapshot := *task
	t.list.mu.Unlock()
	if in.Status == "completed" && snapshot.Status != "completed" {
		if s := sessionFrom(ctx); s != nil {
			call := tool.Call{Name: t.Name(), Input: input}
			if v := s.observe(ctx, &Event{Moment: hook.TaskCompleted, Call: &call, Task: &snapshot}); v.Block {
				return nil, &tool.RejectedError{Tool: t.Name(), Reason: v.Reason}
			}
		}
	}
	t.list.mu.Lock()
	task.Status = in.Status
	snapshot = *task
	t.list.mu.Unlock()
	return json.Marshal(snapshot)
}
